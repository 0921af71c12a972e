// The manifest that `--out DIR` writes beside the part files: what was built, from what.
import { sha256 } from "./discover.js"

export const partFileName = (index: number): string => `part-${String(index).padStart(3, "0")}.json`
export const MANIFEST = "manifest.json"

export interface FileHash {
  readonly path: string
  readonly hash: string
}

export interface PartRecord {
  readonly file: string
  readonly hash: string
  readonly used: number | null
}

export interface BuiltFrom {
  readonly root: string
  readonly exclude: ReadonlyArray<string>
  readonly config: string | null
  readonly commit: string | null
  readonly dirty: boolean | null
  readonly graphDigest: string
  readonly files: ReadonlyArray<FileHash>
}

export interface Manifest {
  readonly scope: unknown
  readonly budget: unknown
  readonly declarations: unknown
  readonly parts: ReadonlyArray<PartRecord>
  readonly builtFrom: BuiltFrom
}

/** The ticket beside a part: `sha256:` + hex of its compact JSON text. */
export const ticket = (compactJson: string): string => `sha256:${sha256(compactJson)}`

export const graphDigest = (files: ReadonlyArray<FileHash>): string => sha256(JSON.stringify(files))
