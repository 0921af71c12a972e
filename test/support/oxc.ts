// The two routes of the anchor reader (src/core/read/anchors-slice.ts): PARSER is what the CLI
// uses (an outline without AST objects, objects only for the kept statements); WHOLE_AST always
// builds every object.
import { parseSync } from "oxc-parser"
import type { AnchorParser } from "../../src/core/read/anchors.js"
import { loadOxcRaw, rawParser } from "../../src/node/oxcRaw.js"

const outline = rawParser(await loadOxcRaw())
if (outline === null) throw new Error("test/support/oxc.ts: oxc's raw transfer buffer could not be allocated")

export const PARSER: AnchorParser = { parse: parseSync, outline }
export const WHOLE_AST: AnchorParser = { parse: parseSync }
