// The chain shape of the corpus generator (scripts/gen-corpus.mjs), issue 38's second 10,000-Spec
// corpus: P Packs, one folder each (`specs/chain-NNN/`, the manifest inside), every Spec of a Pack
// `dependsOn` the one before it (one chain the Pack's length) and `refines` the next Pack's first
// Spec (the last Pack's: the first Pack's). The first Specs refine one another round the Packs: a
// cycle, which SDP allows. What it exercises that the scale shape does not: long dependsOn chains,
// refines across every Pack, and 40 Specs each refined by a whole Pack.
import { NOUNS, VERBS, actor, cap, hash32, makeRng, pad } from "./bench-gen-words.mjs"

/** Roles whose text stands alone (no example: its bound point needs its own parent's vocabulary). */
const ROLES = ["parent", "rule", "constraint", "decision", "model", "workflow", "contract", "story"]
const SHAPE = {
  parent: ["behavior", "feature"],
  rule: ["rule", "story"],
  constraint: ["constraint", "story"],
  decision: ["decision", "feature"],
  model: ["model", "story"],
  workflow: ["workflow", "feature"],
  contract: ["contract", "story"],
  story: ["behavior", "story"]
}

export const chainArea = (p) => `chain-${pad(p)}`
export const chainStep = (k) => `step-${pad(k, 4)}`
export const chainSpecId = (p, k) => `spec:${chainArea(p)}.${chainStep(k)}`
export const chainSpecFile = (p, k) => `specs/${chainArea(p)}/${chainStep(k)}.sdp.md`

/** Every Spec descriptor (specText's shape), Pack by Pack, each Pack's chain in order. */
export const planChainSpecs = (o, questionsFor, readinessFor) => {
  const rng = makeRng(hash32(`chain:${o.seed}`))
  const specs = []
  for (let p = 0; p < o.packs; p++) {
    const count = Math.floor(((p + 1) * o.specs) / o.packs) - Math.floor((p * o.specs) / o.packs)
    const next = (p + 1) % o.packs
    for (let k = 0; k < count; k++) {
      const role = k === 0 ? "parent" : ROLES[k % ROLES.length]
      const [kind, altitude] = k === 0 ? ["behavior", "epic"] : SHAPE[role]
      const family = { index: specs.length, noun: rng.pick(NOUNS), verb: rng.pick(VERBS), actor: actor(rng) }
      const refines = next === p ? [] : [chainSpecId(next, 0)]
      const relations = [
        ["refines", refines],
        ["dependsOn", k === 0 ? [] : [chainSpecId(p, k - 1)]]
      ].filter(([, targets]) => targets.length > 0)
      const questions = questionsFor(rng, role, family.noun)
      specs.push({
        id: chainSpecId(p, k),
        file: chainSpecFile(p, k),
        role,
        kind,
        altitude,
        title: `${cap(family.noun)} ${family.verb} step ${pad(k, 4)} of chain ${pad(p)}`,
        family,
        caseNo: 0,
        pack: p,
        group: p,
        questions,
        readiness: readinessFor(rng, role, questions),
        prose: rng.int(0, 2),
        relations
      })
    }
  }
  return specs
}

/** One Pack a chain, its manifest in the chain's folder. */
export const planChainPacks = (o, specs) =>
  Array.from({ length: o.packs }, (_, p) => {
    const own = specs.filter((s) => s.pack === p)
    return {
      id: `pack:${chainArea(p)}`,
      file: `specs/${chainArea(p)}/${chainArea(p)}.pack.sdp.md`,
      title: `${cap(own[0]?.family.noun ?? "empty")} chain ${pad(p)}`,
      members: own.map((s) => s.id),
      modelRefs: own
        .filter((s) => s.kind === "model")
        .slice(0, 2)
        .map((s) => s.id)
    }
  })
