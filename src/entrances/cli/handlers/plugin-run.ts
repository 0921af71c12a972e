// The `plugin` handler, loaded when the command runs (plugin.ts holds its definition).
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { problems } from "../../../usecases/requests.js"
import { CommandFailure } from "../errors.js"
import { exampleDirProblem } from "./example-dir.js"
import { inCwd } from "../invocation.js"
import { writeOut } from "../output/output.js"
import type { PluginArgs } from "../commands/plugin.js"
import { pluginFiles, skillFiles } from "./plugin-files.js"

/** Each file whole (a temporary file, then a rename), its folders made first. */
const writeFiles = (dir: string, files: ReadonlyArray<readonly [string, string]>) =>
  Effect.forEach(
    files,
    ([rel, text]) =>
      Effect.try({
        try: () => {
          const file = nodePath.join(dir, rel)
          fs.mkdirSync(nodePath.dirname(file), { recursive: true })
          const temp = `${file}.${process.pid}.tmp`
          fs.writeFileSync(temp, text)
          fs.renameSync(temp, file)
          return file
        },
        catch: (e) => CommandFailure.of("plugin", e)
      }),
    { discard: false }
  )

/** What keeps the skill from being written into the project folder `dir`, or null. */
const skillProblem = (dir: string, file: string): string | null => {
  if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory()) return `${dir} is a file; give the project folder.`
  return fs.existsSync(file) ? `${file} is there already; remove it to write it again.` : null
}

export const runPlugin = (args: PluginArgs) =>
  Effect.gen(function* () {
    const dir = yield* inCwd(args.dir)
    const files = args.skillOnly ? skillFiles() : pluginFiles()
    const problem = args.skillOnly ? skillProblem(dir, nodePath.join(dir, files[0][0])) : exampleDirProblem(dir)
    if (problem !== null) return yield* problems([{ scope: "dir", problem }])
    const written = yield* writeFiles(dir, files)
    yield* writeOut(written.map((f) => `${f}\n`).join(""))
  })
