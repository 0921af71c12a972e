// The drift row's baseline (scripts/bench-git.mjs): `git log --name-only` over HEAD's whole history
// in the folder given, what drift's one pass over history reads at least.
import { execFileSync } from "node:child_process"

execFileSync("git", ["log", "--name-only", "--format=%H", "HEAD", "--"], { cwd: process.argv[2], stdio: ["ignore", "ignore", "inherit"], maxBuffer: 1 << 30 })
