// Checks the raw recipe parameters (bundleRecipe line, bundle-contract.md section 2). Every problem
// is reported at once, in parameter order, as a { scope, problem } row; only `undefined` is absent.
import * as Result from "effect/Result"
import type { Graph } from "../model.js"
import { byCodeUnits } from "../model.js"
import { didYouMean } from "../suggest.js"
import type { DeclarationMode, Diagnostic, Diagnostics, Scope } from "./types.js"
import { DECLARATIONS, DEFAULT_BUDGET } from "./types.js"

/**
 * Raw parameter values as the recipe sees them; the use case settles a request into these, the
 * composer checks them (validateParams, below): a new composer parameter is a field here and a check here.
 */
export interface BundleParams {
  readonly pack?: unknown
  readonly members?: unknown
  readonly specs?: unknown
  /** The range as given; beside specs (filled from the impacted ids) or beside a perspective. */
  readonly changeset?: unknown
  /** The perspective's name, beside pack and the members it chose (src/core/graph/perspective.ts). */
  readonly perspective?: unknown
  /** Default 100000. */
  readonly budget?: unknown
  /** "whole" (default) or "addresses". */
  readonly declarations?: unknown
  /** 1-based part index. */
  readonly part?: unknown
}

/** A bundle request the composer has checked and settled (validateParams): the use case's BundleRequest (src/usecases/requests.ts) after its parameters were judged. */
export interface SettledBundle {
  readonly scope: Scope
  /** The Pack id for a Pack scope, else null. */
  readonly packId: string | null
  /** Member ids in scope order (manifest order, the members subset, or the specs list). */
  readonly memberIds: ReadonlyArray<string>
  readonly budget: number
  readonly declarations: DeclarationMode
  readonly part: number | null
}

const show = (value: unknown): string => {
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value)
  if (Array.isArray(value)) return "a list"
  return typeof value === "object" ? "an object" : typeof value
}

export const isPositiveInteger = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0

const isStringList = (value: unknown): value is ReadonlyArray<string> => Array.isArray(value) && value.every((v) => typeof v === "string")

/** Ids seen more than once, in first-repeat order. */
const doubled = (ids: ReadonlyArray<string>): string[] => {
  const seen = new Set<string>()
  const twice: string[] = []
  for (const id of ids) {
    if (seen.has(id) && !twice.includes(id)) twice.push(id)
    seen.add(id)
  }
  return twice
}

const KNOWN_SHOWN = 10

/** After an unknown Pack id: the near ones, then the Packs the graph holds (a few, then a count). */
export const knownPacks = (graph: Graph, id: string): string => {
  const ids = [...graph.packs.keys()].sort(byCodeUnits)
  if (ids.length === 0) return " The corpus holds no Pack."
  const shown = ids.slice(0, KNOWN_SHOWN).join(", ") + (ids.length > KNOWN_SHOWN ? `, and ${ids.length - KNOWN_SHOWN} more (specbundle list packs)` : "")
  return `${didYouMean(id, ids)} Known Packs: ${shown}.`
}

/** An empty string in specs or members: from the command line, `a,,b` or a comma at an end. */
const EMPTY_ID = "An empty id in the list (two commas together, or a comma at an end); Spec ids look like spec:<name>, and specbundle list specs names them."

/** Text given where a Spec id goes that reads as a file path: a separator or a carrier's suffix. */
const looksLikePath = (text: string): boolean => text.includes("/") || text.includes("\\") || /\.sdp\.(md|gherkin)$/.test(text)

/**
 * After an unknown Spec id: the near ones; for text that is not an id at all (a path where an id
 * goes), the Spec whose file it names when one does, what ids look like, and where to find them.
 */
export const unknownSpecHint = (graph: Graph, id: string, sayShape = true): string => {
  const near = didYouMean(id, graph.specs.keys())
  if (id.startsWith("spec:")) return near
  if (!looksLikePath(id)) return sayShape ? `${near} Spec ids look like spec:<name>; specbundle list specs names them.` : near
  // The path as written may be relative to another folder: match on its tail after ./ and ../.
  const tail = id.replace(/\\/g, "/").replace(/^(\.\.?\/)+/, "")
  const owners = [...graph.specs.values()].filter((s) => s.file === tail || s.file.endsWith(`/${tail}`))
  const owner = owners.length === 1 ? ` Did you mean ${JSON.stringify(owners[0].id)} (the Spec in ${owners[0].file})?` : ""
  return sayShape ? `${owner} A Spec id is not a file path: ids look like spec:<name>; specbundle list specs names them.` : owner
}

export const validateParams = (graph: Graph, params: BundleParams): Result.Result<SettledBundle, Diagnostics> => {
  const problems: Diagnostic[] = []
  const say = (scope: string, problem: string) => problems.push({ scope, problem })
  const hasPack = params.pack !== undefined
  const hasSpecs = params.specs !== undefined

  if (hasPack && hasSpecs) say("scope", "A bundle takes one scope: give pack or specs, not both.")
  if (!hasPack && !hasSpecs) say("scope", "A bundle takes one scope: give pack or specs.")

  let packId: string | null = null
  let memberIds: ReadonlyArray<string> = []
  let scope: Scope | null = null
  if (hasPack) {
    const pack = typeof params.pack === "string" ? graph.packs.get(params.pack) : undefined
    if (typeof params.pack !== "string") say("pack", `pack must be a Pack id, not ${show(params.pack)}.`)
    else if (pack === undefined) say("pack", `Unknown Pack ${show(params.pack)}.${knownPacks(graph, params.pack)}`)
    if (params.members === undefined) {
      if (pack !== undefined) {
        packId = pack.id
        memberIds = pack.members
        scope = { pack: pack.id }
      }
    } else if (!isStringList(params.members)) {
      say("members", `members must be a list of Spec ids, not ${show(params.members)}.`)
    } else {
      if (params.members.includes("")) say("members", EMPTY_ID)
      for (const id of doubled(params.members)) if (id !== "") say("members", `${show(id)} appears more than once in members.`)
      if (pack !== undefined) {
        const inPack = new Set(pack.members)
        for (const id of params.members) {
          if (id !== "" && !inPack.has(id)) say("members", `${show(id)} is not a member of ${pack.id}.`)
        }
        packId = pack.id
        memberIds = [...params.members]
        scope = {
          pack: pack.id,
          members: memberIds,
          ...(typeof params.perspective === "string" ? { perspective: params.perspective } : {}),
          ...(typeof params.perspective === "string" && typeof params.changeset === "string" ? { changeset: params.changeset } : {})
        }
      }
    }
  } else if (params.members !== undefined) {
    say("members", "members is taken only beside pack.")
  }

  if (hasSpecs) {
    if (!isStringList(params.specs)) {
      say("specs", `specs must be a list of Spec ids, not ${show(params.specs)}.`)
    } else {
      if (params.specs.includes("")) say("specs", EMPTY_ID)
      for (const id of doubled(params.specs)) if (id !== "") say("specs", `${show(id)} appears more than once in specs.`)
      // What an id looks like is said once, on the first unknown one that is not shaped like an id.
      let shapeSaid = params.specs.includes("")
      for (const id of params.specs) {
        if (id === "" || graph.specs.has(id)) continue
        say("specs", `Unknown Spec ${show(id)}.${unknownSpecHint(graph, id, !shapeSaid)}`)
        shapeSaid ||= !id.startsWith("spec:")
      }
      memberIds = [...params.specs]
      scope = typeof params.changeset === "string" ? { specs: memberIds, changeset: params.changeset } : { specs: memberIds }
    }
  }
  const hasPerspective = params.perspective !== undefined
  if (hasPerspective) {
    if (typeof params.perspective !== "string")
      say("perspective", `perspective must be the name of the perspective that chose members, not ${show(params.perspective)}.`)
    else if (!hasPack || params.members === undefined) say("perspective", "perspective names what chose members; it is taken only beside pack and members.")
  }
  if (params.changeset !== undefined) {
    if (typeof params.changeset !== "string") say("changeset", `changeset must be the range as text, not ${show(params.changeset)}.`)
    else if (!hasSpecs && !hasPerspective) say("changeset", "changeset fills specs or a perspective; it is taken only beside specs or perspective.")
  }

  let budget = DEFAULT_BUDGET
  if (params.budget !== undefined) {
    if (isPositiveInteger(params.budget)) budget = params.budget
    else say("budget", `budget must be a positive integer, not ${show(params.budget)}.`)
  }

  let declarations: DeclarationMode = "whole"
  if (params.declarations !== undefined) {
    if (DECLARATIONS.includes(params.declarations as DeclarationMode)) declarations = params.declarations as DeclarationMode
    else say("declarations", `declarations must be ${DECLARATIONS.map(show).join(" or ")}, not ${show(params.declarations)}.`)
  }

  let part: number | null = null
  if (params.part !== undefined) {
    if (isPositiveInteger(params.part)) part = params.part
    else say("part", `part must be a positive integer, not ${show(params.part)}.`)
  }

  if (problems.length > 0 || scope === null) {
    return Result.fail({ diagnostics: problems.length > 0 ? problems : [{ scope: "scope", problem: "No usable scope." }] })
  }
  return Result.succeed({ scope, packId, memberIds, budget, declarations, part })
}
