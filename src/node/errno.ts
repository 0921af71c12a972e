// Why a file could not be read, in effect/PlatformError's words, from a Node errno code. Apart from
// NodeFileSystemSync so the worker bundle (src/worker.ts) can name the same reason without Effect.
import type { SystemErrorTag } from "effect/PlatformError"

/** The same reasons platform-node gives for the same errno codes. */
export const reasonOf = (code: string | undefined): SystemErrorTag => {
  switch (code) {
    case "ENOENT":
      return "NotFound"
    case "EACCES":
    case "EPERM":
      return "PermissionDenied"
    case "EISDIR":
    case "ENOTDIR":
    case "ELOOP":
      return "BadResource"
    case "EBUSY":
      return "Busy"
    default:
      return "Unknown"
  }
}
