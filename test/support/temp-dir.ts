// The one temp-folder helper every test support module hands out: a fresh, real (symlink-resolved)
// folder under the OS temp folder, removed after the test file that asked for it.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll } from "vitest"

const created: string[] = []
afterAll(() => {
  for (const dir of created) {
    // A test may leave a chmod 000 file behind: give permissions back before removing.
    try {
      fs.chmodSync(dir, 0o755)
    } catch {
      // already gone
    }
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

export const tempDir = (label = "specbundle-test-"): string => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), label)))
  created.push(dir)
  return dir
}
