// What git says when it refuses a repository, told apart from "not a git repository" and from
// other failures (the classification every caller of the Git service goes through).
import { describe, expect, it } from "vitest"
import { classify } from "../../src/node/git.js"

const DUBIOUS = `fatal: detected dubious ownership in repository at '/ci/work/repo'
To add an exception for this directory, call:

\tgit config --global --add safe.directory /ci/work/repo
`
// git 2.35.2 to 2.36 said it this way.
const UNSAFE = `fatal: unsafe repository ('/ci/work/repo' is owned by someone else)
To add an exception for this directory, call:

\tgit config --global --add safe.directory /ci/work/repo
`

describe("classify", () => {
  it("names git's reason, the repository and the fix git prints, in one line", () => {
    for (const text of [DUBIOUS, UNSAFE]) {
      const e = classify("/ci/work/repo/sub", "ls-files", text)
      expect(e._tag).toBe("GitRefusedError")
      expect(e.message).not.toContain("\n")
      expect(e.message).toMatch(/^git refuses the repository \/ci\/work\/repo: (detected dubious ownership|unsafe repository) /)
      expect(e.message).toMatch(/run: git config --global --add safe\.directory \/ci\/work\/repo$/)
    }
  })

  it("without git's fix line, builds the command from the repository git names", () => {
    const e = classify("/x", "rev-parse", "fatal: detected dubious ownership in repository at '/srv/r'\n")
    expect(e.message).toMatch(/run: git config --global --add safe\.directory \/srv\/r$/)
  })

  it("keeps 'not a git repository' and other failures apart from a refusal", () => {
    expect(classify("/x", "ls-files", "fatal: not a git repository (or any of the parent directories): .git\n")._tag).toBe("NotARepositoryError")
    expect(classify("/x", "ls-files", "fatal: index file corrupt\n")._tag).toBe("GitFailedError")
  })
})
