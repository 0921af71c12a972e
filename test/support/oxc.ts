// The two routes of the anchor reader (src/core/read/anchors-slice.ts): PARSER is what the CLI
// uses (native parse, objects only for the kept statements); WHOLE_AST always builds every object.
import { parseSync } from "oxc-parser"
import { parseSync as nativeParseSync } from "oxc-parser/src-js/bindings"
import type { AnchorParser } from "../../src/core/read/anchors.js"
import { nativeParse } from "../../src/core/read/anchors-slice.js"

export const PARSER: AnchorParser = { parse: parseSync, native: nativeParse(nativeParseSync) }
export const WHOLE_AST: AnchorParser = { parse: parseSync }
