// oxc-parser exports its native binding and its raw-transfer modules (package.json "exports"),
// untyped. Only what src/core/read/anchors.ts (whole-AST route) and src/node/oxcRaw.ts read is
// declared here.
declare module "oxc-parser/src-js/bindings" {
  /** 4 GiB-aligned offset of the parser's arena inside `buffer`. */
  export const getBufferOffset: (buffer: Uint8Array) => number
  /** Parses the UTF-8 source already written at `sourceStart` in `block`; the AST is left in the block. */
  export const parseRawSync: (filename: string, block: Uint8Array, sourceStart: number, sourceByteLength: number, options: object) => void
}

declare module "oxc-parser/src-js/generated/constants" {
  export const BLOCK_SIZE: number
  export const BLOCK_ALIGN: number
  export const BUFFER_SIZE: number
  export const ACTIVE_SIZE: number
  export const DATA_POINTER_POS_32: number
}

declare module "oxc-parser/src-js/generated/deserialize/ts" {
  import type { OxcError, Program } from "oxc-parser"
  /** The whole AST in the buffer as ESTree objects, TypeScript-shaped (as parseSync returns it). */
  export const deserialize: (
    buffer: Uint8Array,
    sourceText: string,
    sourceStart: number,
    sourceByteLength: number
  ) => { readonly program: Program; readonly errors: OxcError[] }
}
