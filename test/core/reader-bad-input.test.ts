// Bad input on real disk: every bad file is a finding (file, line, code), healthy siblings still
// read, nothing dropped without a finding. Faults the disk cannot make on demand (an unreadable file
// when running as root, a file vanishing between listing and reading) go through a wrapped
// FileSystem layer under GraphReader.
import * as Effect from "effect/Effect"
import { systemError } from "effect/PlatformError"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import type { Graph } from "../../src/core/model.js"
import { readerWithReadFile, readTree, readTreeWith, ruleSpec, tempDir, where, writeFiles } from "../support/tmp.js"
import { BIKE_DOCK, CHECKOUT_CORPUS, withoutCheckout } from "../support/paths.js"
import { skipping } from "../support/skip.js"

const HEALTHY = "spec:t.healthy"
const healthyFiles = { "specs/healthy.sdp.md": ruleSpec(HEALTHY, "Healthy sibling") }

/** Every carrier file under `root` that discovery reads either gave nodes or has an error finding. */
const nothingDroppedSilently = (graph: Graph, carriers: ReadonlyArray<string>) => {
  for (const file of carriers) {
    const accounted = graph.nodesByFile.has(file) || graph.findings.some((f) => f.file === file && f.severity === "error")
    expect([file, accounted]).toEqual([file, true])
  }
}

/** Reads a root holding the healthy sibling plus `bad`; asserts the sibling survived. */
const readWithSibling = async (bad: Readonly<Record<string, string | Uint8Array>>) => {
  const root = tempDir()
  writeFiles(root, { ...healthyFiles, ...bad })
  const { graph, files } = await readTree(root)
  expect([...graph.specs.keys()]).toEqual([HEALTHY])
  nothingDroppedSilently(
    graph,
    Object.keys(bad).filter((f) => f.endsWith(".sdp.md") || f.endsWith(".sdp.gherkin"))
  )
  return { root, graph, files }
}

const lines = (...ls: string[]): string => ls.join("\n") + "\n"
const ENVELOPE = (id: string) => ["---", `id: ${id}`, "kind: rule", "altitude: story", "readiness: idea", "relations: {}"]
const BODY = ["---", "# Bad", "", "## Rule", "", "- Totals are sums."]

describe("frontmatter YAML refusals", () => {
  it("malformed YAML refuses the carrier at the broken line (3) as invalid-frontmatter", async () => {
    const text = lines("---", "id: spec:t.bad", "kind: rule: story", "altitude: story", "readiness: idea", "relations: {}", ...BODY)
    const { graph } = await readWithSibling({ "specs/bad.sdp.md": text })
    expect(where(graph.findings)).toEqual([["specs/bad.sdp.md", 3, "extract/invalid-frontmatter"]])
  })

  it("refuses a YAML anchor and its alias, each at its own line, and never expands the alias into an edge", async () => {
    // Frontmatter lines: 2 id, 3 kind, 4 altitude, 5 readiness, 6 relations, 7 refines &p, 8 verifies *p.
    const text = lines(
      "---",
      "id: spec:t.alias",
      "kind: rule",
      "altitude: story",
      "readiness: idea",
      "relations:",
      `  refines: &p ${HEALTHY}`,
      "  verifies: *p",
      ...BODY
    )
    const { graph } = await readWithSibling({ "specs/alias.sdp.md": text })
    expect(where(graph.findings)).toEqual([
      ["specs/alias.sdp.md", 7, "extract/yaml-alias"],
      ["specs/alias.sdp.md", 8, "extract/yaml-alias"]
    ])
    expect(graph.edges.filter((e) => e.from === "spec:t.alias")).toEqual([])
  })

  it("refuses a billion-laughs alias bomb without expanding it, with findings capped at 100", async () => {
    // a0 holds 10 scalars, a_i ten aliases of a_(i-1): expanded, a11 would be 10^12 scalars (a
    // read that never ends: the test's deadline). Written, it is 12 anchors and 110 aliases: more
    // findings than the cap of 100, each on a line where one is written.
    const bomb = ["  a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for (let i = 1; i <= 11; i++)
      bomb.push(
        `  a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(", ")}]`
      )
    const text = lines(...ENVELOPE("spec:t.bomb").slice(0, 5), "relations:", "  refines: spec:t.healthy", "lol:", ...bomb, ...BODY)
    const { graph } = await readWithSibling({ "specs/bomb.sdp.md": text })
    const bombFindings = graph.findings.filter((f) => f.file === "specs/bomb.sdp.md")
    expect(bombFindings.length).toBe(100)
    expect(graph.findings.length).toBe(bombFindings.length)
    // The first anchor (&a0) is on file line 9: 2 id .. 6 relations, 7 refines, 8 lol, 9 a0.
    expect(where(bombFindings)).toContainEqual(["specs/bomb.sdp.md", 9, "extract/yaml-alias"])
    expect(bombFindings.every((f) => f.severity === "error")).toBe(true)
    // As written, not expanded: findings only on the bomb's lines (9 to 20), each line's at most its anchor and ten aliases.
    const perLine = new Map<number, number>()
    for (const f of bombFindings) perLine.set(f.line, (perLine.get(f.line) ?? 0) + 1)
    expect([...perLine.keys()].filter((line) => line < 9 || line > 20)).toEqual([])
    expect(Math.max(...perLine.values())).toBeLessThanOrEqual(11)
  })
})

describe("file envelope refusals", () => {
  it("a NUL byte refuses the file as binary at the NUL's line", async () => {
    const text = lines(...ENVELOPE("spec:t.nul"), "---", "# Bin\0ary", "", "## Rule", "", "- Totals are sums.")
    const { graph } = await readWithSibling({ "specs/nul.sdp.md": text })
    // Line 8 is the H1 (7 lines of frontmatter block before it).
    expect(where(graph.findings)).toEqual([["specs/nul.sdp.md", 8, "read/binary"]])
  })

  it("invalid UTF-8 refuses the file at the line holding the bad byte", async () => {
    const good = Buffer.from(lines(...ENVELOPE("spec:t.utf"), "---", "# Caf"), "utf8")
    const rest = Buffer.from("\n\n## Rule\n\n- Totals are sums.\n", "utf8")
    // 0xC3 0x28: a lead byte followed by a non-continuation byte, on the H1 line (line 8).
    const bytes = Buffer.concat([good.subarray(0, good.length - 1), Buffer.from([0xc3, 0x28]), rest])
    const { graph } = await readWithSibling({ "specs/utf.sdp.md": bytes })
    expect(where(graph.findings)).toEqual([["specs/utf.sdp.md", 8, "read/invalid-utf8"]])
  })

  it("a carrier over 256 KiB is refused as too large (line 0: the whole file); one of exactly 256 KiB reads", async () => {
    const sized = (id: string, size: number): string => {
      const head = lines(...ENVELOPE(id), "---", "# Big", "")
      const tail = "\n## Rule\n\n- Totals are sums.\n"
      return head + "a".repeat(size - head.length - tail.length) + tail
    }
    const over = sized("spec:t.over", 256 * 1024 + 1)
    const exact = sized("spec:t.exact", 256 * 1024)
    expect([Buffer.byteLength(over), Buffer.byteLength(exact)]).toEqual([262145, 262144])
    const root = tempDir()
    writeFiles(root, { ...healthyFiles, "specs/over.sdp.md": over, "specs/exact.sdp.md": exact })
    const { graph } = await readTree(root)
    expect(where(graph.findings)).toEqual([["specs/over.sdp.md", 0, "read/too-large"]])
    expect([...graph.specs.keys()]).toEqual(["spec:t.exact", HEALTHY])
  })

  it("a byte-order mark refuses the file at line 1", async () => {
    const { graph } = await readWithSibling({ "specs/bom.sdp.md": "\uFEFF" + ruleSpec("spec:t.bom") })
    expect(where(graph.findings)).toEqual([["specs/bom.sdp.md", 1, "read/bom"]])
  })

  it("an LF file with one CRLF line is refused as mixed newlines at that line (3)", async () => {
    const text = ruleSpec("spec:t.mixed").replace("kind: rule\n", "kind: rule\r\n")
    const { graph } = await readWithSibling({ "specs/mixed.sdp.md": text })
    expect(where(graph.findings)).toEqual([["specs/mixed.sdp.md", 3, "read/mixed-newlines"]])
  })

  it("a lone CR inside a line is refused as mixed newlines at its line (8)", async () => {
    const text = ruleSpec("spec:t.cr", "Lone\rcarriage")
    const { graph } = await readWithSibling({ "specs/cr.sdp.md": text })
    expect(where(graph.findings)).toEqual([["specs/cr.sdp.md", 8, "read/mixed-newlines"]])
  })

  it("a Gherkin carrier passes the same envelope: a NUL byte refuses it", async () => {
    const text = "@spec.t.gherkin @altitude.feature @readiness.idea\nFeature: F\0\n"
    const { graph } = await readWithSibling({ "specs/g.sdp.gherkin": text })
    expect(where(graph.findings)).toEqual([["specs/g.sdp.gherkin", 2, "read/binary"]])
  })

  it("a code file with no anchor text is not a carrier: BOM, mixed newlines, NUL bytes (a video .ts) or 5 MiB give no finding", async () => {
    const big = "// " + "a".repeat(5 * 1024 * 1024) + "\n"
    const { graph, files } = await readWithSibling({
      "src/bom.ts": "\uFEFFexport const x = 1\n",
      "src/mixed.ts": "export const y = 1\r\nexport const z = 2\n",
      "media/clip.ts": new Uint8Array([0x47, 0x40, 0x11, 0x10, 0x00, 0x42, 0xf0, 0x25, 0x00, 0x01]),
      "src/bundle.ts": big
    })
    expect(graph.findings).toEqual([])
    // They were listed and read (hashes recorded), they just hold nothing.
    expect(files().map((f) => f.path)).toEqual(["media/clip.ts", "specs/healthy.sdp.md", "src/bom.ts", "src/bundle.ts", "src/mixed.ts"])
  })

  it("a code file that does carry anchor text still passes the envelope: a NUL byte refuses it at its line", async () => {
    const text = lines('import { codeAnchor } from "@libar-dev/software-delivery-protocol"', "export const a = '\0'")
    const { graph } = await readWithSibling({ "src/anchored.ts": text })
    expect(where(graph.findings)).toEqual([["src/anchored.ts", 2, "read/binary"]])
  })

  // The project's own bike-dock always; checkout-v1 (+ our anchors for it) when ../shared is there.
  const twins = [
    { name: "bike-dock", dirs: [BIKE_DOCK], converted: 33, specs: 23, probe: "specs/rides/unlock-bike.sdp.md", skip: false },
    {
      name: "checkout-v1",
      dirs: [CHECKOUT_CORPUS, path.join(import.meta.dirname, "..", "fixtures", "checkout-anchors")],
      converted: 17,
      specs: 11,
      probe: "specs/orders/create-order.sdp.md",
      skip: withoutCheckout("the CRLF twin of checkout-v1")
    }
  ]
  for (const twin of twins) {
    it.skipIf(twin.skip)(`a CRLF carrier reads exactly like its LF twin: the whole ${twin.name} corpus, Specs, Packs, anchors and edges`, async () => {
      const lf = tempDir()
      const crlf = tempDir()
      for (const root of [lf, crlf]) for (const dir of twin.dirs) fs.cpSync(dir, root, { recursive: true })
      const converted: string[] = []
      const convert = (dir: string) => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const full = path.join(dir, e.name)
          if (e.isDirectory()) convert(full)
          else if (/\.(sdp\.md|ts)$/.test(e.name)) {
            fs.writeFileSync(full, fs.readFileSync(full, "utf8").replace(/\n/g, "\r\n"))
            converted.push(full)
          }
        }
      }
      convert(crlf)
      // Every carrier and code file: bike-dock 23 Specs, 2 Packs, 8 code files; checkout-v1 11 Specs, 1 Pack, our 5.
      expect(converted).toHaveLength(twin.converted)
      expect(fs.readFileSync(path.join(crlf, twin.probe), "utf8")).toContain("---\r\nid:")
      const [a, b] = await Promise.all([readTree(lf), readTree(crlf)])
      expect(b.graph.findings).toEqual([])
      expect(a.graph.specs.size).toBe(twin.specs)
      expect([...b.graph.specs.entries()]).toEqual([...a.graph.specs.entries()])
      expect([...b.graph.packs.entries()]).toEqual([...a.graph.packs.entries()])
      expect([...b.graph.anchors.entries()]).toEqual([...a.graph.anchors.entries()])
      expect(b.graph.edges).toEqual(a.graph.edges)
      // The bytes differ, so the recorded hashes do (the files list is what was read, not the meaning).
      expect(b.files().map((f) => f.path)).toEqual(a.files().map((f) => f.path))
      expect(b.files()[0].hash).not.toBe(a.files()[0].hash)
    })
  }
})

describe("symlinks are never followed", () => {
  it("a symlink loop between two carrier names is reported (warning, line 0) and does not hang the walk", async () => {
    const root = tempDir()
    writeFiles(root, healthyFiles)
    fs.symlinkSync("loop-b.sdp.md", path.join(root, "specs/loop-a.sdp.md"))
    fs.symlinkSync("loop-a.sdp.md", path.join(root, "specs/loop-b.sdp.md"))
    // A folder link back to its parent: following it would recurse forever.
    fs.symlinkSync("..", path.join(root, "specs/up"))
    const { graph, files } = await readTree(root)
    expect([...graph.specs.keys()]).toEqual([HEALTHY])
    expect(files().map((f) => f.path)).toEqual(["specs/healthy.sdp.md"])
    expect(graph.findings.map((f) => [f.file, f.line, f.code, f.severity])).toEqual([
      ["specs/loop-a.sdp.md", 0, "read/symlink", "warning"],
      ["specs/loop-b.sdp.md", 0, "read/symlink", "warning"]
    ])
  })

  it("a symlink to a carrier or a folder outside the root is not read: the outside content never reaches the graph", async () => {
    const outside = tempDir("specbundle-outside-")
    writeFiles(outside, {
      "secret.sdp.md": ruleSpec("spec:outside.secret", "Outside secret title"),
      "dir/other.sdp.md": ruleSpec("spec:outside.other", "Outside other title")
    })
    const root = tempDir()
    writeFiles(root, healthyFiles)
    fs.symlinkSync(path.join(outside, "secret.sdp.md"), path.join(root, "specs/secret.sdp.md"))
    fs.symlinkSync(path.join(outside, "dir"), path.join(root, "specs/linked"))
    const { graph, files } = await readTree(root)
    expect([...graph.specs.keys()]).toEqual([HEALTHY])
    expect(files().map((f) => f.path)).toEqual(["specs/healthy.sdp.md"])
    expect(where(graph.findings)).toEqual([["specs/secret.sdp.md", 0, "read/symlink"]])
    const serialized = JSON.stringify({ specs: [...graph.specs.values()], edges: graph.edges, findings: graph.findings })
    expect(serialized).not.toContain("Outside")
    expect(serialized).not.toContain("spec:outside")
  })
})

describe("files that cannot be read", () => {
  const isRoot = process.getuid?.() === 0

  it.skipIf(skipping(isRoot, "an unreadable (chmod 000) carrier", "root reads any file whatever its mode"))(
    "an unreadable (chmod 000) carrier is a read/unreadable finding; its sibling still reads",
    async () => {
      const root = tempDir()
      writeFiles(root, { ...healthyFiles, "specs/locked.sdp.md": ruleSpec("spec:t.locked") })
      fs.chmodSync(path.join(root, "specs/locked.sdp.md"), 0o000)
      try {
        const { graph } = await readTree(root)
        expect([...graph.specs.keys()]).toEqual([HEALTHY])
        expect(where(graph.findings)).toEqual([["specs/locked.sdp.md", 0, "read/unreadable"]])
      } finally {
        fs.chmodSync(path.join(root, "specs/locked.sdp.md"), 0o644)
      }
    }
  )

  it("a readFile failure (PermissionDenied, injected) on one carrier is a read/unreadable finding naming the reason", async () => {
    const root = tempDir()
    writeFiles(root, { ...healthyFiles, "specs/locked.sdp.md": ruleSpec("spec:t.locked") })
    const layer = readerWithReadFile((real, file) =>
      file.endsWith("locked.sdp.md")
        ? Effect.fail(systemError({ _tag: "PermissionDenied", module: "FileSystem", method: "readFile", pathOrDescriptor: file }))
        : real.readFile(file)
    )
    const { graph, files } = await readTreeWith(layer, root)
    expect([...graph.specs.keys()]).toEqual([HEALTHY])
    expect(where(graph.findings)).toEqual([["specs/locked.sdp.md", 0, "read/unreadable"]])
    expect(graph.findings[0].message).toContain("PermissionDenied")
    expect(graph.findings[0].severity).toBe("error")
    expect(files().map((f) => f.path)).toEqual(["specs/healthy.sdp.md"])
  })

  it("a carrier that vanishes between listing and reading is a read/unreadable (NotFound) finding", async () => {
    const root = tempDir()
    writeFiles(root, { ...healthyFiles, "specs/gone.sdp.md": ruleSpec("spec:t.gone") })
    // The file is listed; the wrapped readFile deletes it first, so the real read fails for real.
    const layer = readerWithReadFile((real, file) =>
      Effect.suspend(() => {
        if (file.endsWith("gone.sdp.md")) fs.rmSync(file)
        return real.readFile(file)
      })
    )
    const { graph } = await readTreeWith(layer, root)
    expect(fs.existsSync(path.join(root, "specs/gone.sdp.md"))).toBe(false)
    expect([...graph.specs.keys()]).toEqual([HEALTHY])
    expect(where(graph.findings)).toEqual([["specs/gone.sdp.md", 0, "read/unreadable"]])
    expect(graph.findings[0].message).toContain("NotFound")
  })
})

describe("duplicate ids", () => {
  it("the same Spec id in two Markdown carriers: every site reported at its id line, neither enters the graph", async () => {
    const root = tempDir()
    writeFiles(root, {
      ...healthyFiles,
      "specs/a/dup.sdp.md": ruleSpec("spec:t.dup", "First"),
      "specs/b/dup.sdp.md": ruleSpec("spec:t.dup", "Second")
    })
    const { graph } = await readTree(root)
    expect([...graph.specs.keys()]).toEqual([HEALTHY])
    expect(where(graph.findings)).toEqual([
      ["specs/a/dup.sdp.md", 2, "extract/duplicate-id"],
      ["specs/b/dup.sdp.md", 2, "extract/duplicate-id"]
    ])
    expect(graph.findings[0].message).toContain("specs/a/dup.sdp.md:2, specs/b/dup.sdp.md:2")
    expect(graph.nodesByFile.has("specs/a/dup.sdp.md")).toBe(false)
    expect(graph.nodesByFile.has("specs/b/dup.sdp.md")).toBe(false)
  })

  it("the same Spec id in a Markdown and a Gherkin carrier is a duplicate at both sites", async () => {
    const root = tempDir()
    writeFiles(root, {
      ...healthyFiles,
      "specs/dup.sdp.md": ruleSpec("spec:t.dup"),
      // The id tag is on line 2 of the Gherkin file.
      "specs/dup.sdp.gherkin": "# a comment line\n@spec.t.dup @altitude.feature @readiness.idea\nFeature: F\n"
    })
    const { graph } = await readTree(root)
    expect([...graph.specs.keys()]).toEqual([HEALTHY])
    expect(where(graph.findings)).toEqual([
      ["specs/dup.sdp.gherkin", 2, "extract/duplicate-id"],
      ["specs/dup.sdp.md", 2, "extract/duplicate-id"]
    ])
  })

  it("the same anchor id in a constant anchor and a comment anchor: both sites reported, neither anchor nor its edge kept", async () => {
    const root = tempDir()
    writeFiles(root, {
      ...healthyFiles,
      "src/a.ts": lines(
        'import { codeAnchor, codeAnchorId, ref } from "@libar-dev/software-delivery-protocol"',
        "",
        "export const a = codeAnchor({",
        '  id: codeAnchorId("impl:t.twice"),',
        `  satisfies: ref("${HEALTHY}")`,
        "})"
      ),
      "src/b.ts": lines("export const x = 1", "", "/**", " * @sdpAnchor impl:t.twice", ` * @sdpSatisfies ${HEALTHY}`, " */", "export const b = 2")
    })
    const { graph } = await readTree(root)
    expect(where(graph.findings)).toEqual([
      ["src/a.ts", 3, "extract/duplicate-id"],
      ["src/b.ts", 3, "extract/duplicate-id"]
    ])
    expect(graph.anchors.size).toBe(0)
    expect(graph.edges).toEqual([])
  })
})

describe("discovery rules", () => {
  it("skips dot-folders, node_modules, dist, generated and coverage at any depth, silently", async () => {
    const root = tempDir()
    const skipped = [
      ".hidden/x.sdp.md",
      "specs/.cache/x.sdp.md",
      "node_modules/p/x.sdp.md",
      "specs/dist/x.sdp.md",
      "generated/x.sdp.md",
      "a/b/coverage/x.sdp.md"
    ]
    writeFiles(root, {
      ...healthyFiles,
      // Same id in each: were any read, the duplicate-id rule would also drop the healthy-looking ones.
      ...Object.fromEntries(skipped.map((f, i) => [f, ruleSpec(`spec:t.skipped${i}`)])),
      "specs/.hidden.sdp.md": ruleSpec("spec:t.dotfile")
    })
    const { graph, files } = await readTree(root)
    // Only folders are skipped by the dot rule: a dot-named file is still a carrier.
    expect(files().map((f) => f.path)).toEqual(["specs/.hidden.sdp.md", "specs/healthy.sdp.md"])
    expect([...graph.specs.keys()]).toEqual(["spec:t.dotfile", HEALTHY])
    expect(graph.findings).toEqual([])
  })

  it("--exclude specs/a skips specs/a/x but not specs/ab/x (segment boundary)", async () => {
    const root = tempDir()
    writeFiles(root, {
      "specs/a/x.sdp.md": ruleSpec("spec:t.a"),
      "specs/ab/x.sdp.md": ruleSpec("spec:t.ab"),
      "specs/a.sdp.md": ruleSpec("spec:t.afile")
    })
    const { graph, files } = await readTree(root, ["specs/a"])
    expect(files().map((f) => f.path)).toEqual(["specs/a.sdp.md", "specs/ab/x.sdp.md"])
    expect([...graph.specs.keys()]).toEqual(["spec:t.ab", "spec:t.afile"])
    // An exclude naming one file skips exactly that file.
    const one = await readTree(root, ["specs/ab/x.sdp.md"])
    expect(one.files().map((f) => f.path)).toEqual(["specs/a.sdp.md", "specs/a/x.sdp.md"])
  })

  it("a .gitignore'd carrier inside a git work tree is not read; outside a work tree the same .gitignore is inert", async () => {
    const files = {
      ...healthyFiles,
      ".gitignore": "ignored/\nspecs/scratch.sdp.md\n",
      "ignored/x.sdp.md": ruleSpec("spec:t.ignored"),
      "specs/scratch.sdp.md": ruleSpec("spec:t.scratch")
    }
    const repo = tempDir()
    writeFiles(repo, files)
    execFileSync("git", ["init", "-q"], { cwd: repo, env: { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined } })
    const inRepo = await readTree(repo)
    expect(inRepo.files().map((f) => f.path)).toEqual(["specs/healthy.sdp.md"])
    expect([...inRepo.graph.specs.keys()]).toEqual([HEALTHY])
    expect(inRepo.graph.findings).toEqual([])

    const plain = tempDir()
    writeFiles(plain, files)
    const outside = await readTree(plain)
    expect([...outside.graph.specs.keys()]).toEqual(["spec:t.healthy", "spec:t.ignored", "spec:t.scratch"])
  })

  it(".d.ts and .sdp.ts files are not anchor candidates, even when they hold anchor text", async () => {
    const anchorText = lines(
      'import { codeAnchor, codeAnchorId, ref } from "@libar-dev/software-delivery-protocol"',
      `export const a = codeAnchor({ id: codeAnchorId("impl:t.NAME"), satisfies: ref("${HEALTHY}") })`
    )
    const root = tempDir()
    writeFiles(root, {
      ...healthyFiles,
      "src/types.d.ts": anchorText.replace("NAME", "dts"),
      "src/spec.sdp.ts": anchorText.replace("NAME", "sdpts"),
      "src/real.ts": anchorText.replace("NAME", "real"),
      "src/view.tsx": anchorText.replace("NAME", "tsx"),
      "src/skip.js": anchorText.replace("NAME", "js"),
      "src/skip.mts": anchorText.replace("NAME", "mts")
    })
    const { graph, files } = await readTree(root)
    expect(files().map((f) => f.path)).toEqual(["specs/healthy.sdp.md", "src/real.ts", "src/view.tsx"])
    expect([...graph.anchors.keys()]).toEqual(["impl:t.real", "impl:t.tsx"])
    // A .sdp.ts carrier is not read, and says so (nothing is dropped without a finding).
    expect(graph.findings.map((f) => [f.file, f.code, f.severity])).toEqual([["src/spec.sdp.ts", "read/unsupported-carrier", "warning"]])
  })
})
