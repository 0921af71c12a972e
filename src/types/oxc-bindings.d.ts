// oxc-parser exports its native binding and its raw-transfer modules (package.json "exports"),
// untyped. Only what src/core/read/anchors.ts (whole-AST route) and src/services/oxcRaw.ts read is
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

declare module "oxc-parser/src-js/raw-transfer/lazy-common" {
  /** The key the lazy node classes check, so only oxc's own code constructs them. */
  export const TOKEN: object
}

declare module "oxc-parser/src-js/generated/lazy/constructors" {
  interface LazySpan {
    readonly start: number
    readonly end: number
  }
  /** A view into the transfer buffer: valid only until the buffer is parsed into again. */
  export class RawTransferData {
    constructor(position: number, ast: object)
    readonly errors: Iterable<{
      readonly severity: string
      readonly message: string
      readonly labels: Iterable<LazySpan & { readonly message: string | null }>
      readonly helpMessage: string | null
    }>
    readonly comments: Iterable<LazySpan & { readonly type: "Line" | "Block" }>
    readonly module: {
      readonly staticImports: Iterable<
        LazySpan & {
          readonly moduleRequest: LazySpan & { readonly value: string }
          readonly entries: Iterable<{ readonly localName: LazySpan & { readonly value: string }; readonly isType: boolean }>
        }
      >
      readonly staticExports: Iterable<LazySpan>
    }
    readonly program: { readonly body: Iterable<LazySpan> }
  }
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
