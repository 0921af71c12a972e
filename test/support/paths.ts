// Where the test corpora sit. The project's own (examples/bike-dock, test/fixtures) travel with every
// clone. The third-party checkout-v1 corpus sits in `../shared` beside the repository, on this
// team's machines and in CI only (never an absolute path of one machine): the tests that check
// behaviour against it specifically run when it is there and otherwise skip with one line saying why.
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"
import { skipping } from "./skip.js"

export const SHARED = fileURLToPath(new URL("../../../shared/", import.meta.url))
export const CHECKOUT_CORPUS = fileURLToPath(new URL("../../../shared/corpora/checkout-v1", import.meta.url))
/** The project's own example corpus: 23 Specs in 2 Packs, with anchored code (its README). */
export const BIKE_DOCK = fileURLToPath(new URL("../../examples/bike-dock", import.meta.url))

/** Whether checkout-v1 is beside the repository (it is in CI, not in a bare clone). */
export const HAS_CHECKOUT = fs.existsSync(CHECKOUT_CORPUS)

/**
 * True when checkout-v1 is missing, after printing once per `what` the one line that says what is
 * skipped and why: `describe.skipIf(withoutCheckout("…"))(…)`.
 */
export const withoutCheckout = (what: string): boolean =>
  skipping(!HAS_CHECKOUT, what, `the third-party corpus ${CHECKOUT_CORPUS} is not beside this clone (CI has it)`)
