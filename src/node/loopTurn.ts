// Turns of the event loop during long synchronous work (a read parsed in one thread). A signal
// reaches JavaScript only when the loop polls: Node's handler notes it in a pipe the loop reads
// then. A read that never lets the loop poll leaves a Ctrl-C unseen until it ends, and one that
// goes from its read straight to the end of the run (microtasks and immediates only) never sees
// it at all (bundle-contract.md section 1: an interrupted run exits 130/143 within a second).

/**
 * Resolves after the event loop has polled once more: a signal that came before this call has
 * been handled. The first immediate may run in the check phase of the loop's current turn, right
 * after a poll that came before the signal; the second runs in the next turn, after its poll.
 * Costs two loop turns (~20-50 µs).
 */
export const afterPoll = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)))

/**
 * How much a thread reads and parses between two turns: a file counts its bytes plus FILE_COST
 * (its open, stat and read). ~20-40 ms of parsing on one core, so a signal (or a worker's message)
 * waits no longer than that however many files a read has. Counted, not timed: where the turns
 * fall does not depend on the machine's speed.
 */
export const TURN_BYTES = 256 * 1024
export const FILE_COST = 1024

/** Counts the work done since the last turn: `spend` per file, and `due` says (once) when to take a turn. */
export class TurnBudget {
  private spent = 0

  spend(bytes: number): void {
    this.spent += FILE_COST + bytes
  }

  /** Whether a turn is due; the count starts again when it is. */
  due(): boolean {
    if (this.spent < TURN_BYTES) return false
    this.spent = 0
    return true
  }
}
