#!/usr/bin/env node
// bin/specbundle.js: the CLI's start-up loader, copied verbatim by scripts/build.mjs (hand-written
// CommonJS, not bundled, not type-checked). It runs the esbuild bundle next to it
// (bin/specbundle-main.cjs) through vm.Script with V8's code cache, so a warm start deserializes the
// bundle's compiled code instead of parsing ~2 MB of JavaScript again (docs/decisions.md).
//
// The cache only changes speed: any failure to find, trust, read or write it is silent, and the
// CLI's output, stderr and exit code are the same with or without it.
//   - Where: a per-user cache folder, created 0700 (never a shared one: a planted cache is code).
//     SPECBUNDLE_CODE_CACHE_DIR overrides it; SPECBUNDLE_CODE_CACHE=0 turns the cache off.
//   - Key: the bundle's SHA-1 (then SHA-256 of that, this loader's wrapper and Node's command-line
//     options) plus Node's version and architecture, in the file name. V8 itself only checks the
//     source's length, so the key must cover the content (npm gives every packed file the same
//     mtime: size+mtime would not do). SHA-1 over the ~0.9 MB bundle, as git names its objects:
//     it tells builds apart (no one gains by forging one: the bundle is code already), in half
//     SHA-256's time (~0.5 ms of every run).
//   - Trust (POSIX): the file must be a regular file (no symlink), owned by this user, not
//     group/other-writable, and end with the CRC-32 of its data (V8 release builds do not verify
//     a code cache's checksum); anything else is ignored, then replaced. The seal catches torn and
//     damaged files, not a forger (who could write the bundle too): CRC-32, ~10x faster than
//     SHA-256 over the ~13 MB a large corpus's hook reads from the parse cache every run.
//   - Write: only when no cache was accepted, after the run (the cache then holds the functions
//     the run compiled), by the main thread, to a temp file renamed into place.
// Worker threads (src/node/extractAll.ts) start on their own, smaller bundle instead.
"use strict"

// A signal before the CLI's own handlers are up (compiling and loading the bundle takes up to a
// second) would kill the process by the signal, which a parent reading the exit status sees
// differently from the contract's 130/143. These are installed first and hand over by themselves:
// once the CLI (src/bin.ts) or runMain listens too, they leave the signal to them. What Node does
// before it runs any JavaScript (its bootstrap) no program can cover.
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143]
]) {
  process.on(signal, () => {
    if (process.listenerCount(signal) === 1) process.exit(code)
  })
}

/**
 * Whether this Node can run the bundle: Effect 4 needs Node 22.19 or later (package.json
 * "engines"). Checked before anything else, so an older Node gets one line instead of an error
 * from deep inside the bundle.
 */
const nodeSupported = (version) => {
  const [major, minor] = String(version).replace(/^v/, "").split(".").map(Number)
  return major > 22 || (major === 22 && minor >= 19)
}
if (!nodeSupported(process.versions.node)) {
  // A hook never locks a team out (bundle-contract.md section 6): a hook run (`hook run NAME ...`,
  // as every hook line specbundle writes or prints starts) says so in one line, naming what it
  // left undone (hooks/print.ts's words), and lets the commit, the push or the agent session go
  // on, as a missing specbundle does. Any other command keeps exit 1.
  const skippedBy = new Map([
    ["pre-commit", "checked nothing"],
    ["pre-push", "composed no bundle"],
    ["session-start", "added no context"],
    ["user-prompt-submit", "added no context"]
  ])
  const [command, action, hook] = process.argv.slice(2)
  const isHook = command === "hook" && action === "run" && skippedBy.has(hook)
  const skipped = isHook ? `, so the ${hook} hook ${skippedBy.get(hook)}` : ""
  process.stderr.write(
    `specbundle needs Node 22.19 or later; this is ${process.version}${skipped}. Get it for this project with npm install -D node@22 (npm scripts, npx and the hook lines then run it), or from your version manager\n`
  )
  process.exit(isHook ? 0 : 1)
}

// Only what every run needs: the rest is required by loadCli, so `--help` (the front bundle) does
// not load node:crypto (~4 ms, a fifth of Node's own start-up).
const fs = require("node:fs")
const path = require("node:path")

// This file's real path: `npm link` and `--preserve-symlinks-main` may run it through a symlink.
const LOADER = fs.realpathSync(__filename)
const PAYLOAD = path.join(path.dirname(LOADER), "specbundle-main.cjs")
/** The pre-commit hook's command lines without effect/cli (src/hook.ts): compiled instead of the CLI's for them. */
const HOOK_PAYLOAD = path.join(path.dirname(LOADER), "specbundle-hook.cjs")
// A CommonJS module wrapper, as Node's own loader gives (the bundle is format "cjs").
const HEAD = "(function (exports, require, module, __filename, __dirname) { "
const TAIL = "\n})"
const FORMAT = "specbundle-code-cache-2"
const PREFIX = "specbundle-main-"
/** The hook bundle's code caches: named apart, pruned apart. */
const HOOK_PREFIX = "specbundle-hook-"
const SUFFIX = ".v8cache"
const DIGEST_BYTES = 4
/** How many code cache files the folder keeps (commands, option sets, other builds or Node versions). */
const KEEP = 16
const PARSE_PREFIX = "specbundle-parse-"
const PARSE_SUFFIX = ".json"
/**
 * How many parse cache files the folder keeps: each corpus root has 16 shards for the work tree's
 * read, 16 for the index's and up to 16 for each old side's, each with a file of its Specs' prose
 * (src/node/parseCache.ts): about two corpora, the oldest shards going first.
 */
const PARSE_KEEP = 256
/** A temp file this old was left by a killed run: it goes with the pruning. */
const STALE_TEMP_MS = 60 * 60 * 1000

/** The per-user cache folder, or undefined when the cache is off or no folder can be named. */
const cacheDir = () => {
  const env = process.env
  if (env.SPECBUNDLE_CODE_CACHE === "0") return undefined
  if (env.SPECBUNDLE_CODE_CACHE_DIR) return path.resolve(env.SPECBUNDLE_CODE_CACHE_DIR)
  let home = ""
  try {
    home = require("node:os").homedir()
  } catch {
    // no home folder: only an explicit location below can work
  }
  const absolute = (dir) => (dir && path.isAbsolute(dir) ? dir : undefined)
  if (process.platform === "win32") {
    const local = absolute(env.LOCALAPPDATA) ?? (absolute(home) && path.join(home, "AppData", "Local"))
    return local ? path.join(local, "specbundle", "cache") : undefined
  }
  if (process.platform === "darwin") return absolute(home) && path.join(home, "Library", "Caches", "specbundle")
  const xdg = absolute(env.XDG_CACHE_HOME)
  if (xdg) return path.join(xdg, "specbundle")
  return absolute(home) && path.join(home, ".cache", "specbundle")
}

/** The seal at the end of every cache file: the data's CRC-32, 4 bytes big-endian. */
const checksum = (data) => {
  const seal = Buffer.alloc(DIGEST_BYTES)
  seal.writeUInt32BE(require("node:zlib").crc32(data))
  return seal
}

/**
 * Closes what a later read (openCache) still holds once nothing can call it any more: a long-lived
 * process (`watch`, the MCP server) opens parse caches whose Specs' prose it may never read.
 */
const unread = new FinalizationRegistry((fd) => {
  try {
    fs.closeSync(fd)
  } catch {
    // already closed
  }
})

/**
 * Opens a cache file now, when it is ours, and returns the size of its data and its read for
 * later: the data when the file is whole, undefined otherwise. The open descriptor keeps the very
 * file opened: a run that replaces or removes it meanwhile (files are renamed into place, never
 * written in place) does not change what this read gives. undefined when missing or not ours.
 */
const openCache = (file) => {
  let fd
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
    const stat = fs.fstatSync(fd)
    const ours =
      stat.isFile() && stat.size > DIGEST_BYTES && (typeof process.getuid !== "function" || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0))
    if (!ours) throw new Error("not ours")
  } catch {
    if (fd !== undefined) closeQuietly(fd)
    return undefined
  }
  const size = fs.fstatSync(fd).size - DIGEST_BYTES
  let done = false
  const later = () => {
    if (done) return undefined
    done = true
    unread.unregister(later)
    try {
      const bytes = fs.readFileSync(fd)
      const data = bytes.subarray(0, bytes.length - DIGEST_BYTES)
      return bytes.length > DIGEST_BYTES && checksum(data).equals(bytes.subarray(bytes.length - DIGEST_BYTES)) ? data : undefined
    } catch {
      return undefined
    } finally {
      closeQuietly(fd)
    }
  }
  unread.register(later, fd, later)
  return { size, read: later }
}

const closeQuietly = (fd) => {
  try {
    fs.closeSync(fd)
  } catch {
    // nothing to do
  }
}

/** The cache's data when the file is ours and whole; undefined otherwise. */
const readCache = (file) => openCache(file)?.read()

/**
 * Creates `dir` and its missing parents, one level at a time. Not mkdirSync's `recursive`: where a
 * folder cannot be made (XDG_CACHE_HOME=/proc/x) it retries forever at full CPU; this fails.
 */
const makeDir = (dir) => {
  const missing = []
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    let stat
    try {
      stat = fs.statSync(d)
    } catch (e) {
      if (e.code !== "ENOENT") throw e
    }
    if (stat !== undefined) {
      if (!stat.isDirectory()) throw new Error(`${d} is not a folder`)
      break
    }
    missing.push(d)
    if (path.dirname(d) === d) break
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d, { mode: 0o700 })
    } catch (e) {
      if (e.code !== "EEXIST") throw e
    }
  }
}

/** Writes data (+ its checksum) to a temp file in `dir`, renames it to `name`, and prunes old caches. */
const writeCache = (dir, name, data, prefix = PREFIX, suffix = SUFFIX, keep = KEEP) => {
  makeDir(dir)
  const temp = path.join(dir, `.${name}.${process.pid}.tmp`)
  try {
    fs.writeFileSync(temp, Buffer.concat([data, checksum(data)]), { mode: 0o600, flag: "wx" })
    fs.renameSync(temp, path.join(dir, name))
  } catch (e) {
    try {
      fs.unlinkSync(temp)
    } catch {
      // never created, or already renamed
    }
    throw e
  }
  // Each build of the bundle has its own key: keep the newest few files, drop the rest (and the
  // temp files of runs killed while writing).
  const others = []
  const drop = []
  const now = Date.now()
  for (const entry of fs.readdirSync(dir)) {
    const cache = entry !== name && entry.startsWith(prefix) && entry.endsWith(suffix)
    const temp = entry.startsWith(`.${prefix}`) && entry.endsWith(".tmp")
    if (!cache && !temp) continue
    try {
      const mtime = fs.lstatSync(path.join(dir, entry)).mtimeMs
      if (cache) others.push({ entry, mtime })
      else if (now - mtime > STALE_TEMP_MS) drop.push(entry)
    } catch {
      // removed meanwhile
    }
  }
  others.sort((a, b) => b.mtime - a.mtime || (a.entry < b.entry ? -1 : 1))
  for (const entry of [...others.slice(keep - 1).map((o) => o.entry), ...drop]) {
    try {
      fs.unlinkSync(path.join(dir, entry))
    } catch {
      // not ours, or removed meanwhile
    }
  }
}

// Help pages and the version need none of the CLI's bundle: a small one answers them from the
// command tree as data (src/front.ts), and returns false for anything else, which the CLI answers.
const FLAGS = new Set(["--help", "-h", "--version", "-v", "-V"])
const args = process.argv.slice(2)
/** The front bundle, or undefined where a partial build lacks it: the CLI then answers help itself. */
const front = () => {
  try {
    return require(path.join(path.dirname(LOADER), "specbundle-front.cjs"))
  } catch {
    return undefined
  }
}
const answered = (args.length === 0 || args.some((a) => FLAGS.has(a))) && front()?.answerFront(args) === true
// The pre-commit hook's command lines (`impact --staged`, with `--strict`, `--quiet`, `--root DIR`;
// `hook run pre-commit [--root DIR]`, what an installed hook runs) have a bundle of their own
// without effect/cli (src/hook.ts, three quarters of the CLI's bytes): words of that shape go to
// it, and it reads them exactly (entrances/cli/hook-argv.ts) or hands them back untouched (false),
// as the front does. A build without it (a partial one) runs the CLI's.
const HOOK_WORDS = new Set(["--staged", "--strict", "--quiet", "--root"])
const hookShaped =
  (args[0] === "impact" && args.includes("--staged") && args.every((a, i) => i === 0 || HOOK_WORDS.has(a) || args[i - 1] === "--root")) ||
  (args[0] === "hook" && args[1] === "run" && args[2] === "pre-commit" && (args.length === 3 || (args.length === 5 && args[3] === "--root")))
const hooked = !answered && hookShaped && loadCli(HOOK_PAYLOAD, HOOK_PREFIX, false)?.answerHook(args) === true
if (!answered && !hooked) loadCli(PAYLOAD, PREFIX, true)

/**
 * Compiles a bundle (with the code cache) and runs it; its exports. `required`: a bundle that
 * cannot be read ends the run with one line; else (the hook's) undefined.
 */
function loadCli(PAYLOAD, PREFIX, required) {
  const vm = require("node:vm")
  const Module = require("node:module")
  const { createHash } = require("node:crypto")
  const { isAscii } = require("node:buffer")
  let bytes
  try {
    bytes = fs.readFileSync(PAYLOAD)
  } catch (e) {
    if (!required) return undefined
    process.stderr.write(`specbundle: cannot read ${PAYLOAD} (${e.code ?? e.message}); run "npm run build"\n`)
    process.exit(1)
  }
  // esbuild writes ASCII (nearly always): latin1 decodes it faster than UTF-8, to the same text.
  const source = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8")

  const dir = cacheDir()
  let name
  let cachedData
  let build
  if (dir !== undefined) {
    build = createHash("sha1").update(bytes).digest("hex")
    // Some Node options change V8's flags, and V8 rejects a cache made under other flags: each set of
    // options gets its own file, so runs that alternate them do not rewrite one file every time.
    // Each command gets its own file too: a cache holds the functions the run that wrote it compiled,
    // and V8 deserializes all of it at start-up, so `list` would load a bundle run's composer and
    // composer (1.8 MB instead of 1.0 MB). The command is the first argument when it is a word.
    const command = /^[a-z][a-z-]{0,23}$/.test(process.argv[2] ?? "") ? process.argv[2] : ""
    const options = JSON.stringify([process.execArgv, process.env.NODE_OPTIONS ?? "", command])
    const key = createHash("sha256").update(FORMAT).update(HEAD).update(TAIL).update(options).update(build).digest("hex")
    name = `${PREFIX}${key}-${process.version}-${process.arch}${SUFFIX}`
    cachedData = readCache(path.join(dir, name))
  }

  const script = new vm.Script(HEAD + source + TAIL, { filename: PAYLOAD, cachedData })

  if (dir !== undefined && (cachedData === undefined || script.cachedDataRejected === true) && require("node:worker_threads").isMainThread) {
    process.once("exit", () => {
      try {
        writeCache(dir, name, script.createCachedData(), PREFIX)
      } catch {
        // read-only or full disk, a folder in the way: the next run compiles from source again
      }
    })
  }

  const payload = new Module(PAYLOAD, module)
  payload.filename = PAYLOAD
  // The parse cache (src/node/parseCache.ts) keeps its files in the same folder, with the same
  // trust rules; `build` ties them to this bundle's bytes, so another build never reads them.
  if (dir !== undefined) {
    // Concatenated, not path.join: the names are ours (no separator, nothing to normalize), and a
    // warm hook names ~100 of them, which join's normalizing cost ~2 ms of its ~80.
    const base = dir.endsWith(path.sep) ? dir : dir + path.sep
    const parseFile = (file) => `${base}${PARSE_PREFIX}${file}${PARSE_SUFFIX}`
    payload.specbundleCache = {
      build,
      read: (file) => readCache(parseFile(file)),
      open: (file) => openCache(parseFile(file)),
      has: (file) => {
        try {
          return fs.lstatSync(parseFile(file), { throwIfNoEntry: false })?.isFile() === true
        } catch {
          // a file where a folder would be (ENOTDIR), or none we may look at: nothing of ours there
          return false
        }
      },
      remove: (file) => {
        try {
          fs.unlinkSync(parseFile(file))
        } catch {
          // gone already, or held open where that forbids removing it (Windows): pruned later
        }
      },
      write: (file, data) => writeCache(dir, `${PARSE_PREFIX}${file}${PARSE_SUFFIX}`, data, PARSE_PREFIX, PARSE_SUFFIX, PARSE_KEEP)
    }
  }
  module.exports = payload.exports
  // Two of Effect's modules probe V8's stack format when they load (effect/Utils, internal/effect):
  // each creates an Error and reads its stack, and the first read makes V8 recompute source
  // positions inside this ~1 MB script (~1.2 ms of a ~80 ms hook). With no stack frames asked for,
  // both take their documented fallback, which only shapes Effect's own stack traces; nothing
  // here prints one. The limit is restored once the bundle's modules are set up.
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    script.runInThisContext().call(payload.exports, payload.exports, Module.createRequire(PAYLOAD), payload, PAYLOAD, path.dirname(PAYLOAD))
  } finally {
    Error.stackTraceLimit = stackTraceLimit
  }
  payload.loaded = true
  // An ES module's bundle replaces its exports object when it runs (src/hook.ts's answerHook).
  module.exports = payload.exports
  return payload.exports
}
