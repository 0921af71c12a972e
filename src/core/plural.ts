// Counts in words people read: "1 pack", "2 packs". Pure; the one home for it in the CLI's text.

/** `n` and the noun in the number it takes: `counted(1, "pack")` is "1 pack", `counted(2, "pack")` "2 packs". */
export const counted = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
