// Whether a work tree file holds what specbundle writes (src/core/own-output.ts): its first bytes
// first, so a file that is not one costs one small read.
import { closeSync, openSync, readFileSync, readSync } from "node:fs"
import { OWN_OUTPUT_HEAD, isOwnOutput, mayBeOwnOutput, opensLikeOwnOutput } from "../core/own-output.js"

/** True when the file at `absolute` (a `.json`) holds a bundle value, part file or manifest; false when unreadable. */
export const holdsOwnOutput = (absolute: string): boolean => {
  if (!mayBeOwnOutput(absolute)) return false
  try {
    const fd = openSync(absolute, "r")
    try {
      const head = Buffer.alloc(OWN_OUTPUT_HEAD)
      const n = readSync(fd, head, 0, OWN_OUTPUT_HEAD, 0)
      if (!opensLikeOwnOutput(head.subarray(0, n).toString("utf8"))) return false
    } finally {
      closeSync(fd)
    }
    return isOwnOutput(readFileSync(absolute, "utf8"))
  } catch {
    return false
  }
}
