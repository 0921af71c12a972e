// The git a hook runs under: `git commit <path>` hands the pre-commit hook a temporary index in
// GIT_INDEX_FILE, and `--staged` must read that one. The Git service runs git through simple-git,
// whose 4.x would drop ambient GIT_* variables (docs/decisions.md, "git through simple-git").
import { execFileSync } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { gitCleanEnv } from "../support/cli.js"
import { run } from "../support/run.js"
import { makeRepo } from "../support/git.js"

const changed = (stdout: string) => (JSON.parse(stdout) as { changedFiles: Array<{ path: string }> }).changedFiles.map((f) => f.path)

describe("GIT_INDEX_FILE", () => {
  it("--staged reads the index GIT_INDEX_FILE names, and the default index without it", async () => {
    const repo = makeRepo()
    repo.commit("base")
    repo.write("a.txt", "a\n")
    repo.write("b.txt", "b\n")
    const alt = path.join(repo.dir, ".git", "alt-index")
    repo.git("read-tree", `--index-output=${alt}`, "HEAD")
    repo.git("add", "a.txt")
    const withAlt = { ...gitCleanEnv(), GIT_INDEX_FILE: alt }
    const empty = await run(repo.dir, ["impact", "--staged"], { env: withAlt })
    expect(empty.status, empty.stderr).toBe(0)
    expect(changed(empty.stdout)).toEqual([])
    // Stage b.txt in the other index only, with git itself.
    execFileSync("git", ["add", "b.txt"], { cwd: repo.dir, env: withAlt })
    const alternate = await run(repo.dir, ["impact", "--staged"], { env: withAlt })
    expect(alternate.status, alternate.stderr).toBe(0)
    expect(changed(alternate.stdout)).toEqual(["b.txt"])
    const plain = await run(repo.dir, ["impact", "--staged"])
    expect(changed(plain.stdout)).toEqual(["a.txt"])
  })
})
