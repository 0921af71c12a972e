// `--out DIR`: part files and the manifest, each written to a temporary name and renamed, so a
// reader (or a killed run, or a full disk) never sees a partial file and the previous set stays whole.
import * as FileSystem from "effect/FileSystem"
import * as Effect from "effect/Effect"
import * as nodePath from "node:path"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { ManifestDraft } from "../../../core/manifest.js"
import { MANIFEST, manifestText } from "../../../core/manifest.js"
import { FileFailure } from "../errors.js"
import { inCwd } from "../invocation.js"

export type { BuiltFrom, ManifestDraft, PartRecord } from "../../../core/manifest.js"
export { MANIFEST, graphDigest, partFileName, ticket } from "../../../core/manifest.js"

const describe = (e: unknown): string => {
  const err = e as { reason?: string; cause?: { code?: string }; message?: string }
  return err.cause?.code ?? err.reason ?? err.message ?? String(e)
}

/** Writes `text` to DIR/name through a temporary file in the same folder, then renames it. */
export const writeAtomic = (dir: string, name: string, text: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const at = yield* inCwd(dir)
    const target = nodePath.join(dir, name)
    const temp = nodePath.join(at, `.${name}.${process.pid}.tmp`)
    yield* fs.writeFileString(temp, text).pipe(
      Effect.andThen(fs.rename(temp, nodePath.join(at, name))),
      Effect.tapError(() => fs.remove(temp).pipe(Effect.ignore)),
      Effect.mapError((e) => new FileFailure({ action: "write", path: target, problem: describe(e) }))
    )
  })

/** Writes DIR/manifest.json, encoded by the manifest Schema (src/core/manifest.ts). */
export const writeManifest = (dir: string, manifest: ManifestDraft) =>
  Result.match(manifestText(manifest), {
    onFailure: (problem) => Effect.fail(new FileFailure({ action: "write", path: nodePath.join(dir, MANIFEST), problem })),
    onSuccess: (text) => writeAtomic(dir, MANIFEST, text)
  })

/**
 * `--out` names a folder: the path, or the nearest part of it that exists, must not be a file
 * (a bad parameter, exit 2, before any work; mkdir alone would only say EEXIST or ENOTDIR).
 */
export const outDirProblem = (dir: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const full = yield* inCwd(dir)
    for (let at = full; ; at = nodePath.dirname(at)) {
      const info = yield* fs.stat(at).pipe(Effect.option)
      if (Option.isSome(info)) {
        if (info.value.type === "Directory") return null
        const problem = at === full ? `--out ${dir} is a file, not a folder.` : `--out ${dir}: ${at} is a file, not a folder.`
        return { scope: "out", problem }
      }
      if (nodePath.dirname(at) === at) return null
    }
  })

export const ensureDir = (dir: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    yield* fs
      .makeDirectory(yield* inCwd(dir), { recursive: true })
      .pipe(Effect.mapError((e) => new FileFailure({ action: "create", path: dir, problem: describe(e) })))
  })

/** Removes part files the new manifest does not list (an earlier, longer set; another --part K). */
export const removeOtherParts = (dir: string, kept: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const at = yield* inCwd(dir)
    const names = yield* fs.readDirectory(at).pipe(Effect.orElseSucceed(() => [] as string[]))
    for (const name of names) {
      if (/^part-\d{3,}\.json$/.test(name) && !kept.includes(name)) yield* fs.remove(nodePath.join(at, name)).pipe(Effect.ignore)
    }
  })
