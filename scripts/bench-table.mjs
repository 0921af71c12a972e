// The bench's one Markdown table, the machine line, the corpora used, and the list of misses.
import * as os from "node:os"

export const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`)
const fmtRatio = (r) => `${r < 1 ? r.toFixed(3) : r.toFixed(2)}x`

const statusOf = (r) => {
  if (r.error !== undefined) return "ERROR"
  if (r.na !== undefined) return "n/a"
  if (r.absoluteLimitMs !== undefined) return r.ms < r.absoluteLimitMs ? "pass" : "MISS"
  if (r.limit === null || r.limit === undefined) return "info"
  if (r.ratio > r.limit) return "MISS"
  return r.goal !== undefined && r.ratio <= r.goal ? "pass (goal met)" : "pass"
}

const cells = (r) => {
  const status = statusOf(r)
  if (r.error !== undefined) return [r.name, "—", r.baseline ?? "—", "—", "—", r.target ?? "—", "—", `ERROR: ${r.error}`]
  if (r.na !== undefined) return [r.name, r.na, "—", "—", "—", r.target ?? "—", "—", "n/a"]
  return [r.name, fmtMs(r.ms), r.baseline, fmtMs(r.baseMs), fmtRatio(r.ratio), r.target, r.rss !== undefined && r.rss >= 0 ? r.rss.toFixed(0) : "n/a", status]
}

const escapeCell = (s) => String(s).replace(/\|/g, "\\|")

export const printReport = (rows, notes, meta) => {
  const out = []
  const cpus = os.cpus()
  out.push("")
  out.push(`specbundle bench${meta.quick ? " (--quick: smaller corpora)" : ""}: median of ${meta.runs} runs per scenario`)
  if (process.env.BENCH_CPU === "1")
    out.push(
      "figures: CPU milliseconds (user + sys with waited children; /usr/bin/time, 10 ms steps; the MCP rows: the server's mean CPU per call from /proc), not wall"
    )
  out.push(
    `machine: ${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, ${os.platform()} ${os.release()}`
  )
  out.push("")
  out.push("| scenario | median | baseline | baseline median | ratio | target | peak RSS MB | pass/fail |")
  out.push("|---|---|---|---|---|---|---|---|")
  for (const r of rows) out.push(`| ${cells(r).map(escapeCell).join(" | ")} |`)
  out.push("")
  out.push("corpora (cached under the OS temp folder):")
  for (const c of meta.corpora) {
    out.push(
      `- ${c.dir}: ${c.specs} specs, ${c.packs} packs, ${c.tsFiles} TS files (${c.anchoredFiles} anchored, ${c.anchors} anchors), ${c.files} files, ${(c.bytes / 1e6).toFixed(1)} MB`
    )
    if (c.changed) out.push(`  in git: committed ${c.changed.committed.join(", ")}; staged ${c.changed.staged.join(", ")}`)
  }
  if (notes.length > 0) {
    out.push("warm-up runs:")
    for (const n of notes) out.push(`- ${n}`)
  }
  const misses = rows.filter((r) => statusOf(r) === "MISS" || statusOf(r) === "ERROR")
  out.push("")
  if (misses.length === 0) out.push("All targets met.")
  else {
    out.push(`MISSED ${misses.length} target(s):`)
    for (const r of misses) {
      out.push(
        r.error !== undefined
          ? `- ${r.name}: ERROR ${r.error}`
          : `- ${r.name}: ${r.absoluteLimitMs !== undefined ? fmtMs(r.ms) : fmtRatio(r.ratio)}, target ${r.target}`
      )
    }
  }
  process.stdout.write(out.join("\n") + "\n")
}
