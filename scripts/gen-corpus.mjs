#!/usr/bin/env node
// A deterministic synthetic SDP corpus for benchmarks and tests (shared/docs/sdp-format.md).
//
//   node scripts/gen-corpus.mjs DIR --specs N --packs P [--ts-files T] [--anchor-every K]
//        [--shape scale|chain|reference] [--seed S]
//
// scale:     P Packs `pack:pack-NNN` of about N/P members, one area per Pack, cross-Pack relations.
// chain:     P Packs `pack:chain-NNN`, one folder each, every Spec `dependsOn` its predecessor and
//            `refines` the next Pack's first Spec (scripts/bench-gen-chain.mjs); small code files.
// reference: one Pack with every Spec, eight areas, one `.sdp.gherkin` file (3 of the N Specs), and
//            TypeScript shaped like the reference implementation's own repository (~225 files, ~2 MB,
//            ~60 anchored files of ~15 KB). Same arguments and seed give the same bytes.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { planChainPacks, planChainSpecs } from "./bench-gen-chain.mjs"
import { gherkinText, packText, specText } from "./bench-gen-specs.mjs"
import { tsText } from "./bench-gen-ts.mjs"
import { NOUNS, VERBS, actor, cap, hash32, makeRng, pad } from "./bench-gen-words.mjs"

const REFERENCE_AREAS = ["carrier", "consumers", "decisions", "extraction", "model", "observation", "protocol", "validation"]
const FAMILY = ["parent", "example", "example", "rule", "constraint", "decision", "model", "workflow", "contract", "story"]
const SHAPE = {
  parent: ["behavior", "feature", "Behavior"],
  example: ["example", "story", "Example"],
  rule: ["rule", "story", "Rule"],
  constraint: ["constraint", "story", "Limit"],
  decision: ["decision", "feature", "Decision"],
  model: ["model", "story", "Vocabulary"],
  workflow: ["workflow", "feature", "Flow"],
  contract: ["contract", "story", "Contract"],
  story: ["behavior", "story", "Story"]
}
const SUFFIX = { rule: "rule", constraint: "limit", decision: "decision", model: "vocabulary", workflow: "flow", contract: "contract", story: "story" }

/** Open questions of one Spec: some blocking, some keyed. Examples carry none (their fence closes Intent). */
const questionsFor = (rng, role, noun) => {
  if (role === "example" || !rng.chance(0.35)) return []
  return Array.from({ length: rng.int(1, 3) }, (_, j) => ({
    blocking: j === 0 && rng.chance(0.4),
    key: rng.chance(0.7) ? `${noun}Q${j + 1}` : null
  }))
}

const readinessFor = (rng, role, questions) => {
  if (questions.some((q) => q.blocking)) return rng.chance(0.5) ? "scoped" : "idea"
  if (role === "example") return rng.chance(0.6) ? "ready" : "defined"
  return rng.pick(["defined", "defined", "ready", "scoped"])
}

const groupsOf = (o) => {
  if (o.shape === "reference") {
    const md = o.specs - 3
    return REFERENCE_AREAS.map((area, g) => ({
      area,
      pack: 0,
      count: Math.floor(((g + 1) * md) / 8) - Math.floor((g * md) / 8)
    }))
  }
  return Array.from({ length: o.packs }, (_, p) => ({
    area: `${NOUNS[p % NOUNS.length]}-${pad(p)}`,
    pack: p,
    count: Math.floor(((p + 1) * o.specs) / o.packs) - Math.floor((p * o.specs) / o.packs)
  }))
}

/** Every Spec descriptor, in Pack member order, with relations pointing at other generated Specs. */
const planSpecs = (o) => {
  const rng = makeRng(hash32(`specs:${o.seed}`))
  const specs = []
  const groups = groupsOf(o)
  let familyIndex = 0
  let previousParents = []
  for (const [g, group] of groups.entries()) {
    const { area } = group
    const epicId = `spec:${area}.overview`
    const add = (s) => {
      const questions = questionsFor(rng, s.role, s.family.noun)
      specs.push({
        ...s,
        pack: group.pack,
        group: g,
        questions,
        readiness: readinessFor(rng, s.role, questions),
        prose: o.shape === "reference" ? rng.int(2, 4) : rng.int(0, 2),
        relations: s.relations.filter(([, targets]) => targets.length > 0)
      })
    }
    const epicFamily = { index: familyIndex, noun: rng.pick(NOUNS), verb: rng.pick(VERBS), actor: actor(rng) }
    add({
      id: epicId,
      file: `specs/${area}/overview.sdp.md`,
      role: "epic",
      kind: "behavior",
      altitude: "epic",
      title: `${cap(area.replace(/-\d+$/, ""))} overview`,
      family: epicFamily,
      relations: previousParents.length > 0 ? [["dependsOn", [`spec:${groups[g - 1].area}.overview`]]] : []
    })
    const parents = []
    let fam = null
    let prev = null
    for (let k = 1; k < group.count; k++) {
      const role = FAMILY[(k - 1) % FAMILY.length]
      if (role === "parent") {
        prev = fam
        const noun = rng.pick(NOUNS)
        const verb = rng.pick(VERBS)
        const slug = `${noun}-${verb}-${pad(Math.floor((k - 1) / FAMILY.length))}`
        fam = { index: familyIndex++, noun, verb, actor: actor(rng), slug, ids: {} }
      }
      const [kind, altitude, label] = SHAPE[role]
      let id = `spec:${area}.${fam.slug}`
      let file = `specs/${area}/${fam.slug}.sdp.md`
      let caseNo = 0
      if (role === "example") {
        caseNo = fam.ids.example1 === undefined ? 1 : 2
        id = `${id}.case-${caseNo}`
        file = `specs/${area}/${fam.slug}-case-${caseNo}.sdp.md`
        fam.ids[`example${caseNo}`] = id
      } else if (role !== "parent") {
        id = `${id}-${SUFFIX[role]}`
        file = `specs/${area}/${fam.slug}-${SUFFIX[role]}.sdp.md`
        fam.ids[role] = id
      } else fam.ids.parent = id
      const parent = fam.ids.parent
      const outside = previousParents.length > 0 && rng.chance(0.25) ? [rng.pick(previousParents)] : []
      let relations
      switch (role) {
        case "parent":
          relations = [
            ["refines", [epicId]],
            ["dependsOn", [...(prev !== null ? [prev.ids.parent] : []), ...outside]],
            ["constrainedBy", prev?.ids.constraint !== undefined ? [prev.ids.constraint] : []],
            ["decidedBy", prev?.ids.decision !== undefined ? [prev.ids.decision] : []]
          ]
          break
        case "example":
          relations = [
            ["refines", [parent]],
            ["verifies", [parent]]
          ]
          break
        case "decision":
          relations = [
            ["refines", [parent]],
            ["supersedes", prev?.ids.decision !== undefined && rng.chance(0.3) ? [prev.ids.decision] : []]
          ]
          break
        case "workflow":
          relations = [
            ["refines", [parent]],
            ["dependsOn", fam.ids.rule !== undefined ? [fam.ids.rule] : [parent]]
          ]
          break
        case "contract":
          relations = [
            ["refines", [parent]],
            ["dependsOn", outside]
          ]
          break
        case "story":
          relations = [
            ["refines", [parent]],
            ["constrainedBy", [fam.ids.constraint]],
            ["decidedBy", [fam.ids.decision]]
          ]
          break
        default:
          relations = [["refines", [parent]]]
      }
      const title = `${cap(fam.noun)} ${fam.verb} ${role === "example" ? `case ${caseNo}` : label.toLowerCase()} ${pad(fam.index, 4)}`
      add({ id, file, role, kind, altitude, title, family: fam, caseNo, relations })
      if (role === "parent") parents.push(id)
    }
    previousParents = parents.length > 0 ? parents : [epicId]
  }
  return specs
}

const GHERKIN_PATH = `${REFERENCE_AREAS[0]}.gherkin-reader`

const gherkinIds = () => [`spec:${GHERKIN_PATH}`, `spec:${GHERKIN_PATH}.case-1`, `spec:${GHERKIN_PATH}.case-2`]

const planPacks = (o, specs) => {
  const count = o.shape === "reference" ? 1 : o.packs
  return Array.from({ length: count }, (_, p) => {
    const own = specs.filter((s) => s.pack === p)
    const members = own.map((s) => s.id)
    if (o.shape === "reference") members.push(...gherkinIds())
    return {
      id: `pack:pack-${pad(p)}`,
      file: `specs/packs/pack-${pad(p)}.pack.sdp.md`,
      title: `${cap(own[0]?.family.noun ?? "empty")} review set ${pad(p)}`,
      members,
      modelRefs: own
        .filter((s) => s.kind === "model")
        .slice(0, 2)
        .map((s) => s.id)
    }
  })
}

/** TypeScript file descriptors: path, size, anchors (ids unique by module and file). */
const planTs = (o, specs) => {
  const rng = makeRng(hash32(`ts:${o.seed}`))
  const examples = specs.filter((s) => s.kind === "example").map((s) => s.id)
  const others = specs.filter((s) => s.kind !== "example").map((s) => s.id)
  if (o.shape === "reference") examples.push(...gherkinIds().slice(1))
  const reference = o.shape === "reference"
  const perModule = reference ? 25 : 100
  const targetAnchored = Math.round((o.tsFiles * 60) / 225)
  const anchored = (i) =>
    o.anchorEvery !== null || !reference
      ? i % (o.anchorEvery ?? 5) === 0
      : Math.floor(((i + 1) * targetAnchored) / o.tsFiles) > Math.floor((i * targetAnchored) / o.tsFiles)
  const files = []
  for (let i = 0; i < o.tsFiles; i++) {
    const mod = `mod-${pad(Math.floor(i / perModule))}`
    const name = `file-${pad(i % perModule)}`
    const anchors = []
    if (anchored(i) && specs.length > 0) {
      const n = reference ? rng.int(2, 3) : rng.int(1, 2)
      for (let k = 1; k <= n; k++) {
        const test = examples.length > 0 && rng.chance(reference ? 0.6 : 0.4)
        anchors.push({
          id: `${test ? "test" : "impl"}:${mod}.${name}-${k}`,
          symbol: `${test ? "test" : "impl"}Anchor${k}`,
          flavor: test ? "test" : "code",
          form: rng.chance(0.4) ? "comment" : "constant",
          target: test ? rng.pick(examples) : rng.pick(others.length > 0 ? others : examples)
        })
      }
    }
    // The chain shape's code files are small (one or two blocks): a floor of fewer bytes, the same number of files.
    const size = reference ? (anchors.length > 0 ? rng.int(10000, 20000) : rng.int(4000, 9300)) : o.shape === "chain" ? rng.int(400, 1200) : rng.int(2000, 5000)
    files.push({
      file: `src/${mod}/${name}.ts`,
      name: rng.pick(NOUNS),
      size,
      anchors,
      testLike: reference ? anchors.length > 0 : anchors.some((a) => a.flavor === "test"),
      seed: rng.int(0, 2 ** 31)
    })
  }
  return files
}

/** Writes the corpus under `dir`; returns counts for the summary. */
export const generateCorpus = (dir, options) => {
  const o = {
    shape: "scale",
    seed: 1,
    anchorEvery: null,
    ...options
  }
  if (o.tsFiles === undefined || o.tsFiles === null) o.tsFiles = o.shape === "reference" ? 225 : o.specs * 2
  if (o.shape === "reference") o.packs = 1
  const chain = o.shape === "chain"
  const specs = chain ? planChainSpecs(o, questionsFor, readinessFor) : planSpecs(o)
  const packs = chain ? planChainPacks(o, specs) : planPacks(o, specs)
  const ts = planTs(o, specs)
  const textRng = makeRng(hash32(`text:${o.seed}`))
  const made = new Set()
  let bytes = 0
  const write = (rel, text) => {
    const full = path.join(dir, rel)
    const parent = path.dirname(full)
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true })
      made.add(parent)
    }
    writeFileSync(full, text)
    bytes += Buffer.byteLength(text)
  }
  for (const s of specs) write(s.file, specText(textRng, s))
  for (const p of packs) write(p.file, packText(textRng, p))
  if (o.shape === "reference") {
    write(
      `specs/${REFERENCE_AREAS[0]}/gherkin-reader.sdp.gherkin`,
      gherkinText(textRng, {
        path: GHERKIN_PATH,
        refines: `spec:${REFERENCE_AREAS[0]}.overview`,
        title: "The reader reads Gherkin carriers"
      })
    )
  }
  for (const f of ts) write(f.file, tsText(makeRng(f.seed), f))
  const anchored = ts.filter((f) => f.anchors.length > 0)
  return {
    specs: specs.length + (o.shape === "reference" ? 3 : 0),
    gherkinSpecs: o.shape === "reference" ? 3 : 0,
    packs: packs.length,
    packIds: packs.map((p) => p.id),
    tsFiles: ts.length,
    anchoredFiles: anchored.length,
    anchors: anchored.reduce((n, f) => n + f.anchors.length, 0),
    files: specs.length + packs.length + ts.length + (o.shape === "reference" ? 1 : 0),
    bytes
  }
}

const USAGE = "usage: node scripts/gen-corpus.mjs DIR --specs N --packs P [--ts-files T] [--anchor-every K] [--shape scale|chain|reference] [--seed S]"

const parseArgs = (argv) => {
  const o = { dir: null, specs: null, packs: null, tsFiles: null, anchorEvery: null, shape: "scale", seed: 1 }
  const numbers = { "--specs": "specs", "--packs": "packs", "--ts-files": "tsFiles", "--anchor-every": "anchorEvery", "--seed": "seed" }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a in numbers) {
      const v = argv[++i]
      if (v === undefined || !/^\d+$/.test(v)) throw new Error(`${a} needs a whole number`)
      o[numbers[a]] = Number(v)
    } else if (a === "--shape") {
      o.shape = argv[++i]
      if (!["scale", "chain", "reference"].includes(o.shape)) throw new Error("--shape is scale, chain or reference")
    } else if (a.startsWith("-")) throw new Error(`unknown option ${a}`)
    else if (o.dir === null) o.dir = a
    else throw new Error(`unexpected argument ${a}`)
  }
  if (o.dir === null || o.specs === null) throw new Error("DIR and --specs are required")
  if (o.shape !== "reference" && (o.packs === null || o.packs < 1)) throw new Error("--packs must be at least 1")
  if (o.shape === "reference" && o.specs < 12) throw new Error("the reference shape needs at least 12 specs")
  if (o.shape !== "reference" && o.specs < 2 * o.packs) throw new Error("every Pack needs at least 2 specs")
  if (o.anchorEvery === 0) throw new Error("--anchor-every must be at least 1")
  return o
}

const main = () => {
  let o
  try {
    o = parseArgs(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`gen-corpus: ${e.message}\n${USAGE}\n`)
    process.exit(2)
  }
  if (existsSync(o.dir) && readdirSync(o.dir).length > 0) {
    // Writing over another corpus would leave its extra files behind and mix two corpora.
    process.stderr.write(`gen-corpus: ${o.dir} is not empty; give a new or empty folder\n`)
    process.exit(2)
  }
  const r = generateCorpus(o.dir, o)
  process.stdout.write(
    `gen-corpus: ${r.specs} specs (${r.gherkinSpecs} Gherkin), ${r.packs} packs, ${r.tsFiles} TypeScript files ` +
      `(${r.anchoredFiles} anchored, ${r.anchors} anchors), ${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB in ${o.dir}\n`
  )
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main()
