// Counts in words people read: "1 pack", "2 packs". Pure; the one home for it in the CLI's text.

/** The noun in the number `n` takes: `noun(1, "pack")` is "pack", `noun(2, "pack")` "packs". */
export const noun = (n: number, one: string, many = `${one}s`): string => (n === 1 ? one : many)

/** `n` and the noun in the number it takes: `counted(1, "pack")` is "1 pack", `counted(2, "pack")` "2 packs". */
export const counted = (n: number, one: string, many = `${one}s`): string => `${n} ${noun(n, one, many)}`
