// Where the shared reference material sits: `../shared` beside the repository, in a session and
// in CI alike (never an absolute path of one machine).
import { fileURLToPath } from "node:url"

export const SHARED = fileURLToPath(new URL("../../../shared/", import.meta.url))
export const CHECKOUT_CORPUS = fileURLToPath(new URL("../../../shared/corpora/checkout-v1", import.meta.url))
