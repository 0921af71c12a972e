// Vitest setup file (vitest.config.ts): after every test the worker's event loop gets one turn
// (setImmediate runs after the poll phase), so vitest's own messages are answered between tests.
// Without it a file of synchronous tests (spawnSync) never yields between them, and once their
// time adds up past 60 s the worker's RPC to the runner times out ("Timeout calling
// onTaskUpdate") with every test passed; with it only one test alone holding the loop 60 s can.
import { afterEach } from "vitest"

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)))
