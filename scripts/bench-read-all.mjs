// The reader baseline of `npm run bench`: what Node needs just to read every file of a corpus once.
// Deliberately plain: a recursive directory walk and one synchronous read per file.
import { readFileSync, readdirSync } from "node:fs"
import * as path from "node:path"

let files = 0
let bytes = 0
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      // A repository's own store is not the corpus.
      if (entry.name !== ".git") walk(full)
    } else if (entry.isFile()) {
      bytes += readFileSync(full, "utf8").length
      files++
    }
  }
}

walk(process.argv[2] ?? ".")
if (process.argv.includes("--print")) process.stdout.write(`${files} files, ${bytes} chars\n`)
