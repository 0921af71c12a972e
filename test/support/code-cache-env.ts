// Vitest setup file (vitest.config.ts): every test file's CLI subprocesses inherit a private,
// temporary V8 code cache folder (src/loader.cjs), so no test reads or writes the user's real cache
// (~/.cache/specbundle), and the suite still runs the CLI through the cache as users do.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll } from "vitest"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "specbundle-code-cache-"))
process.env.SPECBUNDLE_CODE_CACHE_DIR = dir
delete process.env.SPECBUNDLE_CODE_CACHE
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
