import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { GitDiff, decodeChangeset } from "../../src/services/GitDiff.js"
import { makeRepo, repoAt, runGitIn, tempDir } from "../support/git.js"

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8")

layer(GitDiff.Default)("GitDiff", (it) => {
  describe("changeset forms", () => {
    it.effect("REV lists committed, staged, unstaged and untracked changes, not ignored files", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write(".gitignore", "ignored.ts\n")
        repo.write("committed.ts", "one\n")
        repo.write("staged.ts", "one\n")
        repo.write("unstaged.ts", "one\n")
        const base = repo.commit("base")
        repo.write("committed.ts", "two\n")
        repo.commit("second")
        repo.write("staged.ts", "two\n")
        repo.git("add", "staged.ts")
        repo.write("unstaged.ts", "two\n")
        repo.write("untracked.ts", "new\n")
        repo.write("ignored.ts", "ignored\n")
        const git = yield* GitDiff
        const result = yield* git.diff(repo.dir, { _tag: "Rev", rev: "HEAD~1" })
        expect(result.files).toEqual([
          { path: "committed.ts", status: "modified" },
          { path: "staged.ts", status: "modified" },
          { path: "unstaged.ts", status: "modified" },
          { path: "untracked.ts", status: "untracked" }
        ])
        // With the root at the top, the diff's one listing of the work tree rides along for the read.
        expect(result.newSource._tag).toBe("WorkingTree")
        expect(result.newSource._tag === "WorkingTree" && result.newSource.listing).toContain("? untracked.ts")
        expect(result.oldCommit).toBe(base)
        expect(result.outsideRoot).toEqual([])
      })
    )

    it.effect("A..B against another branch reads the new side from B's tree, not the working tree", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("keep.sdp.md", "base\n")
        repo.commit("base")
        repo.git("checkout", "-q", "-b", "feature")
        repo.write("feature.sdp.md", "only on feature\n")
        repo.write("keep.sdp.md", "changed on feature\n")
        const feature = repo.commit("feature")
        repo.git("checkout", "-q", "main")
        const git = yield* GitDiff
        const result = yield* git.diff(repo.dir, { _tag: "Range", from: "main", to: "feature" })
        expect(result.files).toEqual([
          { path: "feature.sdp.md", status: "added" },
          { path: "keep.sdp.md", status: "modified" }
        ])
        expect(result.newSource).toEqual({ _tag: "Tree", commit: feature })
        expect(fs.existsSync(path.join(repo.dir, "feature.sdp.md"))).toBe(false)
        if (result.newSource._tag !== "Tree") throw new Error("unreachable")
        const files = yield* git.readSource(result.location, result.newSource, (p) => p.endsWith(".sdp.md"))
        expect(files.map((f) => [f.path, text(f.bytes)])).toEqual([
          ["feature.sdp.md", "only on feature\n"],
          ["keep.sdp.md", "changed on feature\n"]
        ])
      })
    )

    it.effect("A..B whose B is the clean checked-out commit reads the working tree", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("a.ts", "1\n")
        repo.commit("one")
        repo.write("a.ts", "2\n")
        repo.commit("two")
        const git = yield* GitDiff
        const clean = yield* git.diff(repo.dir, { _tag: "Range", from: "HEAD~1", to: "HEAD" })
        expect(clean.newSource).toEqual({ _tag: "WorkingTree" })
        repo.write("a.ts", "dirty\n")
        const dirty = yield* git.diff(repo.dir, { _tag: "Range", from: "HEAD~1", to: "HEAD" })
        expect(dirty.newSource._tag).toBe("Tree")
        expect(dirty.files).toEqual([{ path: "a.ts", status: "modified" }])
      })
    )

    it.effect("A...B diffs from the merge base, so changes on the moved-on base branch are not listed", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("shared.ts", "base\n")
        const base = repo.commit("base")
        repo.git("checkout", "-q", "-b", "feature")
        repo.write("feature.ts", "feature\n")
        repo.commit("feature work")
        repo.git("checkout", "-q", "main")
        repo.write("mainline.ts", "main moved on\n")
        repo.commit("main work")
        const git = yield* GitDiff
        const three = yield* git.diff(repo.dir, { _tag: "MergeBase", from: "main", to: "feature" })
        expect(three.files).toEqual([{ path: "feature.ts", status: "added" }])
        expect(three.oldCommit).toBe(base)
        const two = yield* git.diff(repo.dir, { _tag: "Range", from: "main", to: "feature" })
        expect(two.files).toEqual([
          { path: "feature.ts", status: "added" },
          { path: "mainline.ts", status: "deleted" }
        ])
      })
    )

    it.effect("--staged lists the index against HEAD and reads the staged bytes, not the fixed working copy", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("spec.sdp.md", "good\n")
        const head = repo.commit("base")
        repo.write("spec.sdp.md", "BROKEN\n")
        repo.git("add", "spec.sdp.md")
        repo.write("spec.sdp.md", "fixed only in the working tree\n")
        repo.write("untracked.sdp.md", "not staged\n")
        const git = yield* GitDiff
        const result = yield* git.diff(repo.dir, { _tag: "Staged" })
        expect(result.files).toEqual([{ path: "spec.sdp.md", status: "modified" }])
        // The diff's own listing of the index (one git for the conflict check and the new side).
        expect(result.newSource._tag).toBe("Index")
        expect(result.newSource._tag === "Index" && result.newSource.listed?.map((e) => e.path)).toEqual(["spec.sdp.md"])
        expect(result.oldCommit).toBe(head)
        // The old side's object id, from the diff: HEAD's blob of the path.
        expect(result.oldObjects.get("spec.sdp.md")).toBe(repo.git("rev-parse", "HEAD:spec.sdp.md").trim())
        const listed = result.newSource._tag === "Index" ? result.newSource.listed : undefined
        for (const source of [{ _tag: "Index", listed } as const, { _tag: "Index" } as const]) {
          const files = yield* git.readSource(result.location, source, (p) => p.endsWith(".sdp.md"))
          expect(files.map((f) => [f.path, text(f.bytes)])).toEqual([["spec.sdp.md", "BROKEN\n"]])
        }
        const old = yield* git.readOld(result.location, head, ["spec.sdp.md"], result.oldObjects)
        expect(old.map((f) => [f.path, text(f.bytes)])).toEqual([["spec.sdp.md", "good\n"]])
      })
    )

    it.effect("--staged in a repository with no commit yet lists every staged file as added", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("first.sdp.md", "x\n")
        repo.git("add", "first.sdp.md")
        const git = yield* GitDiff
        const result = yield* git.diff(repo.dir, { _tag: "Staged" })
        expect(result.files).toEqual([{ path: "first.sdp.md", status: "added" }])
        expect(result.oldCommit).toBeNull()
      })
    )
  })

  describe("renames, deletes and old blobs", () => {
    it.effect("a rename keeps both paths and the old blob stays readable", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("specs/old-name.sdp.md", "a carrier with enough text to be a rename\n".repeat(5))
        repo.write("gone.ts", "deleted later\n")
        repo.commit("base")
        repo.git("mv", "specs/old-name.sdp.md", "specs/new-name.sdp.md")
        repo.git("rm", "-q", "gone.ts")
        repo.commit("rename and delete")
        const git = yield* GitDiff
        const result = yield* git.diff(repo.dir, { _tag: "Range", from: "HEAD~1", to: "HEAD" })
        expect(result.files).toEqual([
          { path: "gone.ts", status: "deleted" },
          { path: "specs/new-name.sdp.md", status: "renamed", oldPath: "specs/old-name.sdp.md" }
        ])
        const old = yield* git.readOld(result.location, result.oldCommit!, ["specs/old-name.sdp.md", "gone.ts", "never-existed.ts"])
        expect(old.map((f) => f.path)).toEqual(["gone.ts", "specs/old-name.sdp.md"])
        expect(text(old[0].bytes)).toBe("deleted later\n")
      })
    )
  })

  describe("sub-folder roots", () => {
    it.effect("paths are rebased onto the root and changes outside it are listed as outside", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("packages/app/src/a.ts", "1\n")
        repo.write("packages/app/moving.sdp.md", "moving out of the package root, long enough to be a rename\n".repeat(4))
        repo.write("packages/other/b.ts", "1\n")
        repo.write("README.md", "top\n")
        repo.commit("base")
        repo.write("packages/app/src/a.ts", "2\n")
        repo.write("packages/other/b.ts", "2\n")
        repo.write("README.md", "changed\n")
        repo.git("mv", "packages/app/moving.sdp.md", "packages/other/moved.sdp.md")
        repo.write("packages/app/new.ts", "untracked\n")
        const root = path.join(repo.dir, "packages", "app")
        const git = yield* GitDiff
        const result = yield* git.diff(root, { _tag: "Rev", rev: "HEAD" })
        expect(result.location.prefix).toBe("packages/app/")
        expect(result.location.top).toBe(repo.dir)
        expect(result.files).toEqual([
          { path: "moving.sdp.md", status: "deleted" },
          { path: "new.ts", status: "untracked" },
          { path: "src/a.ts", status: "modified" }
        ])
        expect(result.outsideRoot).toEqual(["README.md", "packages/other/b.ts", "packages/other/moved.sdp.md"])
        const files = yield* git.readSource(result.location, { _tag: "Index" }, () => true)
        expect(files.map((f) => f.path)).toEqual(["src/a.ts"])
      })
    )

    it.effect("a range ending at HEAD reads the working tree unless the root itself has changes", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("pkg/a.ts", "1\n")
        repo.write("other/b.ts", "1\n")
        repo.commit("one")
        repo.write("pkg/a.ts", "2\n")
        repo.commit("two")
        repo.write("other/b.ts", "dirty outside the root\n")
        const root = path.join(repo.dir, "pkg")
        const git = yield* GitDiff
        const range = { _tag: "Range", from: "HEAD~1", to: "HEAD" } as const
        expect((yield* git.diff(root, range)).newSource).toEqual({ _tag: "WorkingTree" })
        repo.write("pkg/new.ts", "untracked inside the root\n")
        expect((yield* git.diff(root, range)).newSource._tag).toBe("Tree")
        expect((yield* git.repoState(root))?.dirty).toBe(true)
      })
    )
  })

  describe("errors", () => {
    it.effect("an unknown revision is a one-line error naming it", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("a.ts", "1\n")
        repo.commit("base")
        const git = yield* GitDiff
        const error = yield* Effect.flip(git.diff(repo.dir, { _tag: "Range", from: "HEAD", to: "no-such-branch" }))
        expect(error._tag).toBe("UnknownRevisionError")
        expect(error.message).toContain("no-such-branch")
        expect(error.message).not.toContain("\n")
      })
    )

    it.effect("a folder outside any repository is NotARepositoryError naming the folder", () =>
      Effect.gen(function* () {
        const dir = tempDir("specbundle-norepo-")
        const git = yield* GitDiff
        const error = yield* Effect.flip(git.diff(dir, { _tag: "Rev", rev: "HEAD" }))
        expect(error._tag).toBe("NotARepositoryError")
        expect(error.message).toContain(dir)
        const missing = yield* Effect.flip(git.diff(path.join(dir, "absent"), { _tag: "Rev", rev: "HEAD" }))
        expect(missing._tag).toBe("NotARepositoryError")
        expect(missing.message).toContain("does not exist")
        // One repoState (the manifest's): outside a repository both facts are null.
        expect(yield* git.repoState(dir)).toEqual({ commit: null, dirty: null })
      })
    )

    it.effect("a revision starting with - is refused before git runs: --output=<file> creates no file", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        repo.write("a.ts", "1\n")
        repo.commit("base")
        const target = path.join(tempDir("specbundle-out-"), "pwned.txt")
        for (const value of [`--output=${target}`, `HEAD..--output=${target}`, `--output=${target}...HEAD`]) {
          const error = yield* Effect.flip(decodeChangeset(value))
          expect(error._tag).toBe("InvalidRevisionError")
          expect(error.message).toContain("--output")
        }
        const git = yield* GitDiff
        // The service refuses on its own too, whatever a caller hands it.
        const direct = yield* Effect.flip(git.diff(repo.dir, { _tag: "Rev", rev: `--output=${target}` }))
        expect(direct._tag).toBe("InvalidRevisionError")
        const range = yield* Effect.flip(git.diff(repo.dir, { _tag: "Range", from: "HEAD", to: `--output=${target}` }))
        expect(range._tag).toBe("InvalidRevisionError")
        expect(fs.existsSync(target)).toBe(false)
      })
    )

    it.effect("a shallow clone missing the parent says to fetch more history", () =>
      Effect.gen(function* () {
        const origin = makeRepo()
        origin.write("a.ts", "1\n")
        origin.commit("one")
        origin.write("a.ts", "2\n")
        origin.commit("two")
        const clone = tempDir("specbundle-shallow-")
        runGitIn(clone, ["clone", "-q", "--depth", "1", `file://${origin.dir}`, "c"])
        const repo = repoAt(path.join(clone, "c"))
        const git = yield* GitDiff
        const error = yield* Effect.flip(git.diff(repo.dir, { _tag: "Rev", rev: "HEAD~1" }))
        expect(error._tag).toBe("ShallowCloneError")
        expect(error.message).toContain("HEAD~1")
        expect(error.message).toContain("fetch")
        const unknown = yield* Effect.flip(git.diff(repo.dir, { _tag: "Rev", rev: "nope~1" }))
        expect(unknown._tag).toBe("UnknownRevisionError")
      })
    )

    it.effect("git missing from PATH is GitMissingError", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        const git = yield* GitDiff
        const saved = process.env.PATH
        process.env.PATH = tempDir("specbundle-nopath-")
        const error = yield* Effect.flip(git.diff(repo.dir, { _tag: "Rev", rev: "HEAD" })).pipe(
          Effect.ensuring(Effect.sync(() => void (process.env.PATH = saved)))
        )
        expect(error._tag).toBe("GitMissingError")
        expect(error.message).toContain("git is not installed")
      })
    )
  })

  describe("odd file names", () => {
    it.effect("names with spaces, quotes, newlines and non-ASCII survive listing and blob reads", () =>
      Effect.gen(function* () {
        const repo = makeRepo()
        const names = ["with space.sdp.md", 'quo"te.ts', "new\nline.ts", "ünïcødé/名前.sdp.md", "tab\there.ts"]
        repo.write("base.ts", "0\n")
        const base = repo.commit("base")
        names.forEach((n, i) => repo.write(n, `content ${i}\n`))
        repo.commit("odd names")
        const git = yield* GitDiff
        const result = yield* git.diff(repo.dir, { _tag: "Range", from: base, to: "HEAD" })
        expect(result.files.map((f) => f.path)).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
        expect(result.files.every((f) => f.status === "added")).toBe(true)
        const files = yield* git.readSource(result.location, { _tag: "Index" }, (p) => p !== "base.ts")
        const byPath = new Map(files.map((f) => [f.path, text(f.bytes)]))
        names.forEach((n, i) => expect(byPath.get(n)).toBe(`content ${i}\n`))
        // Untracked odd names come through ls-files -z just as well.
        repo.write('untracked "odd"\nname.ts', "u\n")
        const rev = yield* git.diff(repo.dir, { _tag: "Rev", rev: "HEAD" })
        expect(rev.files).toEqual([{ path: 'untracked "odd"\nname.ts', status: "untracked" }])
      })
    )
  })

  it.effect("repoState reports HEAD and whether the root has changes", () =>
    Effect.gen(function* () {
      const repo = makeRepo()
      repo.write("a.ts", "1\n")
      const head = repo.commit("base")
      const git = yield* GitDiff
      expect(yield* git.repoState(repo.dir)).toEqual({ commit: head, dirty: false })
      repo.write("b.ts", "new\n")
      expect(yield* git.repoState(repo.dir)).toEqual({ commit: head, dirty: true })
    })
  )
})
