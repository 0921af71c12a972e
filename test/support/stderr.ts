// Waiting for a child process to print something, checked at each chunk it writes on stderr: no
// polling, no clock of its own (a child that never prints it ends at the test's deadline).
import type { ChildProcess } from "node:child_process"

/**
 * Resolves once `holds()` is true, checked now and after each stderr chunk; rejects when the
 * child exits first. `stderr()`, for the message, is the text so far, collected by a listener
 * added before this one (so a chunk is in it when `holds` runs).
 */
export const whenStderr = (child: ChildProcess, stderr: () => string, holds: () => boolean): Promise<void> =>
  new Promise((resolve, reject) => {
    const check = () => {
      if (holds()) {
        done()
        resolve()
      } else if (child.exitCode !== null || child.signalCode !== null) {
        done()
        reject(new Error(`exited with ${child.exitCode ?? child.signalCode} first; stderr:\n${stderr()}`))
      }
    }
    const done = () => {
      child.stderr!.off("data", check)
      child.off("exit", check)
    }
    child.stderr!.on("data", check)
    child.on("exit", check)
    check()
  })
