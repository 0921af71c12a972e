// The warm corpus (issue 38): a long-lived entrance's reads over a parse cache kept in memory
// (ParseCache.layerWarm) give what a cold read gives, byte for byte, after every kind of change
// between calls: an edit that keeps the graph's shape (the graph patched), one that changes a
// relation (built anew), files added, removed and renamed, staged and committed, and a file
// rewritten to the same size and mtime as the read before saw. Each step compares the warm
// runtime's answers with those of a runtime built for that step alone, with no cache at all.
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import type { Graph } from "../../src/core/model.js"
import { impactOutput, listOutput } from "../../src/core/render/outputs.js"
import * as NodeFileSystem from "../../src/node/NodeFileSystemSync.js"
import { ParseCache, type WorkerPool } from "../../src/node/runtime.js"
import { Bundler } from "../../src/usecases/Bundler.js"
import { Changes } from "../../src/usecases/Changes.js"
import { Corpus } from "../../src/usecases/Corpus.js"
import { codeAnchor, makeRepo, specCarrier } from "../support/git.js"
import { TestRuntime, cachedRuntime } from "../support/runtime.js"

const useCases = (runtime: Layer.Layer<WorkerPool | ParseCache>) =>
  Layer.mergeAll(Bundler.Default, Changes.Default, Corpus.Default).pipe(Layer.provide(Layer.mergeAll(NodeFileSystem.layer, runtime)))

/** Every part of a graph, in its maps' order: equal text, equal graphs. */
const graphText = (g: Graph): string =>
  JSON.stringify({
    specs: [...g.specs],
    packs: [...g.packs],
    anchors: [...g.anchors],
    edges: g.edges,
    outgoing: [...g.outgoing],
    incoming: [...g.incoming],
    nodesByFile: [...g.nodesByFile],
    findings: g.findings
  })

/** What the entrances print for each kind of call, with the graphs behind them. */
const answers = (root: string) =>
  Effect.gen(function* () {
    const changes = yield* Changes
    const corpus = yield* Corpus
    const bundler = yield* Bundler
    const staged = yield* changes.report({ root, staged: true })
    const tree = yield* changes.report({ root, changeset: "HEAD" })
    const read = yield* corpus.read({ root })
    const bundle = yield* bundler.bundle({ root, pack: "pack:w", budget: "M" })
    return {
      text: {
        staged: impactOutput(staged.report, staged.graph, "json") + graphText(staged.graph) + JSON.stringify(staged.files()),
        tree: impactOutput(tree.report, tree.graph, "markdown") + graphText(tree.graph) + JSON.stringify(tree.files()),
        corpus: listOutput(read.graph, "specs", "json") + graphText(read.graph) + JSON.stringify(read.files()),
        bundle: bundle.text
      },
      graphs: { staged: staged.graph, tree: tree.graph, corpus: read.graph }
    }
  })

const repo = makeRepo()
const root = repo.dir
const pack = (members: ReadonlyArray<string>) =>
  `---\nid: pack:w\nspecs:\n${members.map((m) => `  - ${m}`).join("\n")}\n---\n# The pack\n\nWhat the pack is about.\n`
for (let i = 0; i < 24; i++)
  repo.write(`specs/s${i}.sdp.md`, specCarrier(`spec:w.s${i}`, `Spec ${i}`, i === 0 ? "relations: {}" : `relations:\n  refines: spec:w.s0`))
repo.write("specs/w.pack.sdp.md", pack(["spec:w.s1", "spec:w.s2", "spec:w.s3"]))
repo.write("src/a.ts", codeAnchor("impl:w.a", ["spec:w.s1"]))
repo.commit("corpus")

const warm = ManagedRuntime.make(useCases(cachedRuntime(ParseCache.layerWarm())))
afterAll(() => warm.dispose())

const cold = () => Effect.runPromise(answers(root).pipe(Effect.provide(useCases(TestRuntime))))
const warmly = () => warm.runPromise(answers(root))

/** The warm answers equal to a cold run's, each kind of call; the warm graphs returned. */
const same = async () => {
  const [w, c] = [await warmly(), await cold()]
  expect(w.text.staged).toBe(c.text.staged)
  expect(w.text.tree).toBe(c.text.tree)
  expect(w.text.corpus).toBe(c.text.corpus)
  expect(w.text.bundle).toBe(c.text.bundle)
  return w.graphs
}

describe("a corpus kept warm between calls", () => {
  it("answers as a cold read after each change, patching the graph only when the change keeps its shape", async () => {
    const first = await same()
    expect(first.corpus.specs.size).toBe(24)

    // Nothing changed: the very graphs of the call before.
    const again = await same()
    expect(again.staged).toBe(first.staged)
    expect(again.corpus).toBe(first.corpus)

    // A title edited and staged: the same ids, relations and findings, so the graph is patched (its edges kept).
    repo.write("specs/s5.sdp.md", specCarrier("spec:w.s5", "Spec 5, retitled", "relations:\n  refines: spec:w.s0"))
    repo.git("add", "--", "specs/s5.sdp.md")
    const retitled = await same()
    expect(retitled.staged.specs.get("spec:w.s5")?.title).toBe("Spec 5, retitled")
    expect(retitled.staged).not.toBe(again.staged)
    expect(retitled.staged.edges).toBe(again.staged.edges)
    expect(retitled.corpus.edges).toBe(again.corpus.edges)

    // A relation changed, in the work tree only: the tree's graph is built anew, the index's stays.
    repo.write("specs/s6.sdp.md", specCarrier("spec:w.s6", "Spec 6", "relations:\n  refines: spec:w.s1"))
    const related = await same()
    expect(related.corpus.edges).not.toBe(retitled.corpus.edges)
    expect(related.staged).toBe(retitled.staged)

    // Added (untracked, then staged), removed, renamed.
    repo.write("specs/new.sdp.md", specCarrier("spec:w.new", "New"))
    await same()
    repo.git("add", "-A")
    await same()
    repo.remove("specs/s7.sdp.md")
    await same()
    fs.mkdirSync(path.join(root, "specs/moved"))
    repo.git("mv", "specs/s8.sdp.md", "specs/moved/s8.sdp.md")
    await same()
    repo.write("src/b.ts", codeAnchor("impl:w.b", ["spec:w.s2"]))
    repo.write("specs/w.pack.sdp.md", pack(["spec:w.s1", "spec:w.s2", "spec:w.s4"]))
    await same()

    // Committed: HEAD moves, the old side is another commit's.
    repo.commit("changes")
    await same()

    // A duplicate id and then its removal: findings change both ways.
    repo.write("specs/dup.sdp.md", specCarrier("spec:w.s3", "Another s3"))
    const duplicated = await same()
    expect(duplicated.corpus.specs.has("spec:w.s3")).toBe(false)
    repo.remove("specs/dup.sdp.md")
    expect((await same()).corpus.specs.has("spec:w.s3")).toBe(true)
  }, 120_000)

  it("reads again a file rewritten to the same size and mtime as the read before saw (racy)", async () => {
    const file = path.join(root, "specs/s9.sdp.md")
    // A whole second, the granule of many file systems: the rewrite below lands in the same one.
    const tick = Math.floor(Date.now() / 1000)
    fs.utimesSync(file, tick, tick)
    await same()
    const before = fs.statSync(file)
    const text = fs.readFileSync(file, "utf8")
    const rewritten = text.replace("Spec 9", "Spec X")
    expect(rewritten.length).toBe(text.length)
    fs.writeFileSync(file, rewritten)
    // Within the same tick: size and mtime are what the read before saw.
    fs.utimesSync(file, tick, tick)
    expect([fs.statSync(file).size, fs.statSync(file).mtimeMs]).toEqual([before.size, before.mtimeMs])
    const after = await same()
    expect(after.corpus.specs.get("spec:w.s9")?.title).toBe("Spec X")
    // Staged the same way: the index names new bytes by their object id.
    repo.git("add", "--", "specs/s9.sdp.md")
    fs.writeFileSync(file, text)
    fs.utimesSync(file, tick, tick)
    const staged = await same()
    expect(staged.staged.specs.get("spec:w.s9")?.title).toBe("Spec X")
    expect(staged.corpus.specs.get("spec:w.s9")?.title).toBe("Spec 9")
  }, 60_000)
})
