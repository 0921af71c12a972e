// oxc-parser exports its native binding (package.json "exports"), untyped. Only what
// src/core/read/anchors-slice.ts reads is declared: its result's program is oxc's JSON text.
declare module "oxc-parser/src-js/bindings" {
  import type { Comment, EcmaScriptModule, OxcError, ParserOptions } from "oxc-parser"
  export const parseSync: (
    filename: string,
    sourceText: string,
    options?: ParserOptions
  ) => { readonly errors: OxcError[]; readonly comments: Comment[]; readonly module: EcmaScriptModule; readonly program: string }
}
