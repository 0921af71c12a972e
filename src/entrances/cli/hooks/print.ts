// `specbundle hook print HOOK... --manager M`: what to commit for a hook manager, in the form each one
// runs it. The three pass git's pre-push data differently: husky runs .husky/<hook> with sh, git's
// arguments and stdin; lefthook runs `run:` with sh -c after putting git's arguments in {1}, {2},
// and passes stdin only with `use_stdin: true`; the pre-commit framework runs `entry` without a
// shell, reads git's stdin itself and hands the range over as PRE_COMMIT_* variables.
//
// lefthook and the pre-commit framework do not put node_modules/.bin on PATH (husky 9 does), so
// every manager gets the same guarded sh line: specbundle from the project's node_modules/.bin,
// else from PATH, else one line saying so and exit 0, as the hook `hook install` writes does. It
// never asks a registry (`npx --no-install` does, and fails the commit when the package is missing).
export type HookName = "pre-commit" | "pre-push"
export type HookManager = "husky" | "lefthook" | "pre-commit"

export const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:=@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)

/** What a hook that cannot run did not do. */
export const SKIPPED: Record<HookName, string> = { "pre-commit": "checked nothing", "pre-push": "composed no bundle" }

/** Hook names in the order they run, each once: what `hook print` prints for. */
export const HOOKS: ReadonlyArray<HookName> = ["pre-commit", "pre-push"]

/**
 * The sh line that runs `specbundle hook run NAME [--root R] ARGS` from the project's
 * node_modules/.bin or PATH, or says in one line that it is missing and lets git go on (status 0).
 * No `exit`/`exec`: in a husky file more lines may follow. No ": " or " #", so YAML reads it plain.
 */
export const guardedRun = (name: HookName, root: string, args: string): string => guardedLine(name, root, args, SKIPPED[name])

/** guardedRun for any hook `hook run` knows; `skipped` says what a missing specbundle leaves undone. */
export const guardedLine = (name: string, root: string, args: string, skipped: string): string => {
  const run = `specbundle hook run ${name}${root === "" ? "" : ` --root ${shellQuote(root)}`}${args === "" ? "" : ` ${args}`}`
  const missing = `specbundle is not in node_modules/.bin or on PATH, so the ${name} hook ${skipped} (install specbundle in this project)`
  return `PATH="node_modules/.bin:$PATH"; if command -v specbundle >/dev/null 2>&1; then ${run}; else echo "${missing}" >&2; fi`
}

/** A YAML scalar for `s`: plain when YAML reads it back unchanged, else single-quoted. */
export const yamlScalar = (s: string): string => (/^[\s\-?:,[\]{}#&*!|>'"%@`]/.test(s) || /: |\s#|:$|\s$|[\n\t]/.test(s) ? `'${s.replace(/'/g, "''")}'` : s)

const husky = (name: HookName, root: string): string => `${guardedRun(name, root, name === "pre-push" ? `"$1"` : "")}\n`

const lefthook = (names: ReadonlyArray<HookName>, root: string): string =>
  [
    `# lefthook.yml (then: lefthook install)`,
    ...names.flatMap((name) => [
      `${name}:`,
      `  commands:`,
      `    specbundle:`,
      // {1} is the remote's name; --manager lefthook lets the hook name use_stdin when no ref arrives.
      ...(name === "pre-push"
        ? [`      run: ${yamlScalar(guardedRun(name, root, "--manager lefthook {1}"))}`, `      use_stdin: true`]
        : [`      run: ${yamlScalar(guardedRun(name, root, ""))}`])
    ]),
    ``
  ].join("\n")

/** sh -c with `script` as one shell word, for `entry` (which the framework splits like a shell). */
const shC = (script: string): string => `sh -c '${script.replace(/'/g, `'\\''`)}'`

const preCommit = (names: ReadonlyArray<HookName>, root: string): string =>
  [
    // stages named after the hook (pre-commit, pre-push) need pre-commit 3.2; 3.6 and later check
    // minimum_pre_commit_version before anything else.
    `# .pre-commit-config.yaml (pre-commit 3.2 or later); in an existing file, add the hooks to its one repos: list`,
    `# then: pre-commit install${names.includes("pre-push") ? names.map((n) => ` --hook-type ${n}`).join("") : ""}`,
    `minimum_pre_commit_version: "3.2.0"`,
    `repos:`,
    `  - repo: local`,
    `    hooks:`,
    ...names.flatMap((name) => [
      `      - id: specbundle-${name}`,
      `        name: specbundle ${name}`,
      `        entry: ${yamlScalar(shC(guardedRun(name, root, "")))}`,
      `        language: system`,
      `        stages: [${name}]`,
      `        pass_filenames: false`,
      `        always_run: true`,
      // The framework shows a passing hook's lines (where a bundle went, a missing specbundle) only so.
      `        verbose: true`
    ]),
    ``
  ].join("\n")

/**
 * What `hook print` writes for `manager`; `root` is relative to the repository top ("" for the top).
 * lefthook and pre-commit take several hooks in one snippet (one file, one top-level key each);
 * husky takes one (a file per hook): the caller refuses more.
 */
export const hookSnippet = (names: ReadonlyArray<HookName>, root: string, manager: HookManager): string => {
  const ordered = HOOKS.filter((h) => names.includes(h))
  switch (manager) {
    case "husky":
      return ordered.map((name) => husky(name, root)).join("")
    case "lefthook":
      return lefthook(ordered, root)
    case "pre-commit":
      return preCommit(ordered, root)
  }
}

/** The hooks `hook print HOOK [GIT_ARG...]` asks for, or the one problem with them (exit 2). */
export const printedHooks = (
  hook: HookName,
  more: ReadonlyArray<string>,
  manager: HookManager
): { readonly hooks: ReadonlyArray<HookName> } | { readonly problem: string } => {
  const unknown = more.find((a) => !(HOOKS as ReadonlyArray<string>).includes(a))
  if (unknown !== undefined) return { problem: `hook print takes the hooks pre-commit and pre-push, not "${unknown}".` }
  const hooks = HOOKS.filter((h) => h === hook || more.includes(h))
  if (manager === "husky" && hooks.length > 1)
    return { problem: "--manager husky prints one hook at a time (a line for .husky/pre-commit, another for .husky/pre-push)." }
  return { hooks }
}
