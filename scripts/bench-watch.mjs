#!/usr/bin/env node
// How file watchers fare on a large work tree (docs/decisions.md, "watch watches folders, ...").
//
//   node scripts/bench-watch.mjs DIR [--candidates FOLDER] [--only NAME,NAME]
//
// DIR: a git work tree (e.g. scripts/gen-corpus.mjs output, committed, with a node_modules copy).
// FOLDER: where chokidar@4.0.3 and @parcel/watcher@2.6.0 are installed
// (`npm install --prefix FOLDER chokidar@4.0.3 @parcel/watcher@2.6.0`); without it only `node`
// and `folders` run. Each candidate runs in a process of its own: the time until it is armed, its
// RSS and heap then, the inotify watches it holds, and which of six saves it reports (in place,
// `git checkout -- F` then a save, a temp file renamed over it then a save, `sed -i` then a save,
// a new folder with a file in it). A benchmark, not a test: a save not reported within 3 s is "missed".
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"

const SKIP = (name) => name.startsWith(".") || ["node_modules", "dist", "generated", "coverage"].includes(name)

/** inotify watches this process holds (Linux), from /proc/self/fdinfo. */
const inotifyWatches = () => {
  let n = 0
  try {
    for (const fd of fs.readdirSync("/proc/self/fdinfo")) {
      try {
        n += fs
          .readFileSync(`/proc/self/fdinfo/${fd}`, "utf8")
          .split("\n")
          .filter((l) => l.startsWith("inotify wd:")).length
      } catch {}
    }
  } catch {
    return null
  }
  return n
}

// ---- the child: one candidate ----
const child = async (name, root, candidates) => {
  const req = candidates ? createRequire(path.join(candidates, "x.js")) : null
  const say = (line) => process.stdout.write(line + "\n")
  const event = (abs) => say(`event ${path.relative(root, abs).split(path.sep).join("/")}`)
  const t0 = process.hrtime.bigint()
  const cpu0 = process.cpuUsage()
  const ready = () => {
    const ms = Number(process.hrtime.bigint() - t0) / 1e6
    const cpu = process.cpuUsage(cpu0)
    const m = process.memoryUsage()
    say(
      `ready ${JSON.stringify({ ms: Math.round(ms), cpuMs: Math.round((cpu.user + cpu.system) / 1000), rssMB: +(m.rss / 2 ** 20).toFixed(1), heapMB: +(m.heapUsed / 2 ** 20).toFixed(1), watches: inotifyWatches() })}`
    )
  }
  if (name === "node") {
    // What watch did: Node's recursive fs.watch (on Linux a JS walk that watches every file).
    const w = fs.watch(root, { recursive: true }, (_t, f) => f && event(path.join(root, f)))
    // A folder gone during its walk (git's object folders) is an error event: said, not fatal.
    w.on("error", (e) => process.stderr.write(`node: ${e.code} ${e.path ?? ""}\n`))
    // Armed when the watch count stops growing.
    let last = -1
    const poll = () => {
      const n = inotifyWatches()
      if (n === last) ready()
      else {
        last = n
        setTimeout(poll, 200)
      }
    }
    setTimeout(poll, 0)
  } else if (name === "folders") {
    // One non-recursive fs.watch per folder, skipped folders left out, re-armed when a folder is replaced.
    const watchers = new Map()
    const add = (dir) => {
      if (watchers.has(dir)) return
      let w
      try {
        w = fs.watch(dir, (type, f) => {
          if (!f) return
          const full = path.join(dir, f)
          event(full)
          if (type === "rename" && !SKIP(f)) {
            try {
              if (fs.statSync(full).isDirectory()) add(full)
            } catch {}
          }
        })
      } catch {
        return
      }
      w.on("error", () => {})
      watchers.set(dir, w)
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && !SKIP(e.name)) add(path.join(dir, e.name))
    }
    add(root)
    ready()
  } else if (name === "chokidar") {
    const chokidar = req("chokidar")
    const w = chokidar.watch(root, { ignoreInitial: true, ignored: (p) => p !== root && SKIP(path.basename(p)) })
    for (const ev of ["add", "change", "unlink", "addDir", "unlinkDir"]) w.on(ev, (p) => event(p))
    w.on("ready", ready)
  } else if (name === "parcel") {
    const parcel = req("@parcel/watcher")
    await parcel.subscribe(
      root,
      (err, events) => {
        if (!err) for (const e of events) event(e.path)
      },
      { ignore: ["node_modules", "dist", "generated", "coverage", ".*", "**/.*", "**/node_modules"] }
    )
    ready()
  }
}

// ---- the parent: saves and what each candidate reported ----
const git = (root, ...args) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })

const firstSpec = (root) => {
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory() && !SKIP(e.name)) {
        const f = walk(path.join(dir, e.name))
        if (f) return f
      } else if (e.name.endsWith(".sdp.md")) return path.join(dir, e.name)
    }
    return null
  }
  return path.relative(root, walk(root))
}

const run = (name, root, candidates) =>
  new Promise((resolve) => {
    const c = spawn(process.execPath, [import.meta.filename, "--child", name, root, candidates ?? ""], { stdio: ["ignore", "pipe", "inherit"] })
    let buf = ""
    const waiters = []
    let ready = null
    c.stdout.setEncoding("utf8").on("data", (d) => {
      buf += d
      let i
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i)
        buf = buf.slice(i + 1)
        if (line.startsWith("ready ")) ready = JSON.parse(line.slice(6))
        for (const w of waiters.splice(0)) w(line)
      }
    })
    const next = (pred, ms) =>
      new Promise((res) => {
        const t = setTimeout(() => res(false), ms)
        const on = (line) => (pred(line) ? (clearTimeout(t), res(true)) : waiters.push(on))
        waiters.push(on)
      })
    ;(async () => {
      await next((l) => l.startsWith("ready "), 600_000)
      const f = firstSpec(root)
      const full = path.join(root, f)
      const seen = (rel) => next((l) => l === `event ${rel}`, 3000)
      const settle = () => new Promise((r) => setTimeout(r, 400))
      const results = {}
      const step = async (label, act, rel = f) => {
        const p = seen(rel)
        act()
        results[label] = (await p) ? "seen" : "missed"
        await settle()
      }
      await step("in place", () => fs.appendFileSync(full, "\n"))
      await step("git checkout -- F", () => git(root, "checkout", "--", f))
      await step("save after checkout", () => fs.appendFileSync(full, "\n"))
      await step("rename over", () => {
        fs.writeFileSync(full + ".tmp~", fs.readFileSync(full, "utf8") + "\n")
        fs.renameSync(full + ".tmp~", full)
      })
      await step("save after rename", () => fs.appendFileSync(full, "\n"))
      await step("sed -i then save", () => {
        execFileSync("sed", ["-i", "s/$//", full])
      })
      await step("save after sed -i", () => fs.appendFileSync(full, "\n"))
      const dir = path.join(path.dirname(f), "new-folder")
      await step(
        "file in a new folder",
        () => {
          fs.mkdirSync(path.join(root, dir))
          fs.writeFileSync(path.join(root, dir, "n.sdp.md"), "x\n")
        },
        `${dir}/n.sdp.md`
      )
      fs.rmSync(path.join(root, dir), { recursive: true })
      git(root, "checkout", "--", f)
      c.kill()
      resolve({ name, ready, results })
    })()
  })

const argv = process.argv.slice(2)
if (argv[0] === "--child") await child(argv[1], argv[2], argv[3] || null)
else {
  const root = path.resolve(argv[0])
  const ci = argv.indexOf("--candidates")
  const candidates = ci >= 0 ? path.resolve(argv[ci + 1]) : null
  const oi = argv.indexOf("--only")
  const names = oi >= 0 ? argv[oi + 1].split(",") : candidates ? ["node", "folders", "chokidar", "parcel"] : ["node", "folders"]
  for (const name of names) {
    const r = await run(name, root, candidates)
    process.stdout.write(
      `${name}: ${JSON.stringify(r.ready)}\n  ${Object.entries(r.results)
        .map(([k, v]) => `${k}: ${v}`)
        .join("; ")}\n`
    )
  }
}
