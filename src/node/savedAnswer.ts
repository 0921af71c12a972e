// The last answer of a CLI run whose every input a stamp covers, kept between runs (issue 50): a
// `--staged` impact report is the index against HEAD under the configuration (src/node/stagedStamp.ts),
// so a run with the same request, environment and stamp prints the same bytes and exits the same
// way. Measured against the alternative the issue named (a graph kept between runs): deserializing
// the 10,000-Spec graph with node:v8 costs more than decoding the parse cache's shards and building
// it (docs/decisions.md, "The pre-commit hook's answer is kept by the repository's stat data"); the
// answer is what an unchanged state needs, and it is a few kilobytes.
//
// One file per request in the loader's cache folder (the parse cache's store: its trust rules, its
// CRC-32 seal, written to a temp file and renamed into place), named by the request's key; the file
// holds the whole key, the stamp, the build and the text. Anything that does not match to the byte,
// or cannot be read or parsed, is no answer: the run reads as ever and writes it anew.
import { createHash } from "node:crypto"
import type { CacheStore } from "./parseCache.js"

/** What a run wrote, in order (stdout and stderr interleaved as written), and its exit code. */
export interface KeptAnswer {
  readonly writes: ReadonlyArray<readonly ["out" | "err", string]>
  readonly exit: number
}

/** 1: the first. */
const FORMAT = 1

const fileOf = (store: CacheStore, key: string): string =>
  `answer-${createHash("sha256")
    .update(JSON.stringify([FORMAT, store.build, key]))
    .digest("hex")
    .slice(0, 40)}`

const isWrites = (value: unknown): value is KeptAnswer["writes"] =>
  Array.isArray(value) && value.every((w) => Array.isArray(w) && w.length === 2 && (w[0] === "out" || w[0] === "err") && typeof w[1] === "string")

/**
 * The answer kept for `key` when it was kept under the same stamp by this build; undefined
 * otherwise (no store, no stamp, none kept, another stamp, build or format, a file not whole).
 */
export const keptAnswer = (store: CacheStore | undefined, key: string, stamp: string | undefined): KeptAnswer | undefined => {
  if (store === undefined || stamp === undefined) return undefined
  try {
    const data = store.read(fileOf(store, key))
    if (data === undefined) return undefined
    const saved = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("utf8")) as Record<string, unknown>
    if (saved.format !== FORMAT || saved.build !== store.build || saved.key !== key || saved.stamp !== stamp) return undefined
    if (!isWrites(saved.writes) || !(saved.exit === 0 || saved.exit === 1)) return undefined
    return { writes: saved.writes, exit: saved.exit }
  } catch {
    return undefined
  }
}

/** Keeps a run's answer for `key` under the stamp taken before it ran (nothing without a store or a stamp; a failed write costs the next run time only). */
export const keepAnswer = (store: CacheStore | undefined, key: string, stamp: string | undefined, answer: KeptAnswer): void => {
  if (store === undefined || stamp === undefined) return
  try {
    const text = JSON.stringify({ format: FORMAT, build: store.build, key, stamp, writes: answer.writes, exit: answer.exit })
    store.write(fileOf(store, key), Buffer.from(text, "utf8"))
  } catch {
    // read-only or full: the next run reads again
  }
}
