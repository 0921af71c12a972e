// `specbundle hook print HOOK --manager M`: what to commit for a hook manager, in the form each one
// runs it. The three pass git's pre-push data differently: husky runs .husky/<hook> with sh, git's
// arguments and stdin; lefthook runs `run:` with sh -c after putting git's arguments in {1}, {2},
// and passes stdin only with `use_stdin: true`; the pre-commit framework runs `entry` without a
// shell, reads git's stdin itself and hands the range over as PRE_COMMIT_* variables.
export type HookName = "pre-commit" | "pre-push"
export type HookManager = "husky" | "lefthook" | "pre-commit"

export const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:=@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)

/** `specbundle hook run HOOK [--root R]`: no machine paths, `specbundle` from PATH (or node_modules/.bin). */
const runLine = (name: HookName, root: string): string => `specbundle hook run ${name}${root === "" ? "" : ` --root ${shellQuote(root)}`}`

/** What `hook print` writes for `manager`; `root` is relative to the repository top ("" for the top). */
export const hookSnippet = (name: HookName, root: string, manager: HookManager): string => {
  const run = runLine(name, root)
  switch (manager) {
    case "husky":
      // A line for .husky/<hook> (or any sh hook file): $1 is the remote's name.
      return `${run}${name === "pre-push" ? ` "$1"` : ""}\n`
    case "lefthook":
      return [
        `# lefthook.yml`,
        `${name}:`,
        `  commands:`,
        `    specbundle:`,
        ...(name === "pre-push" ? [`      run: ${run} {1}`, `      use_stdin: true`] : [`      run: ${run}`]),
        ``
      ].join("\n")
    case "pre-commit":
      return [
        `# .pre-commit-config.yaml${name === "pre-push" ? " (pre-commit install --hook-type pre-push)" : ""}`,
        `repos:`,
        `  - repo: local`,
        `    hooks:`,
        `      - id: specbundle-${name}`,
        `        name: specbundle ${name}`,
        `        entry: ${run}`,
        `        language: system`,
        `        stages: [${name}]`,
        `        pass_filenames: false`,
        `        always_run: true`,
        ``
      ].join("\n")
  }
}
