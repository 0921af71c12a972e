// A test that cannot run on this machine skips with one line saying what and why, printed once:
// `skipped: <what>: <why>` (vitest's own report names skipped tests without a reason).
const noted = new Set<string>()

/** `skip`, after printing `skipped: <what>: <why>` once when it is true: `it.skipIf(skipping(cond, "…", "…"))("…", …)`. */
export const skipping = (skip: boolean, what: string, why: string): boolean => {
  if (skip && !noted.has(what)) {
    noted.add(what)
    console.log(`skipped: ${what}: ${why}`)
  }
  return skip
}
