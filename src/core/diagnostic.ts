// The `{ scope, problem }` row every wrong parameter is reported in (the recipe's diagnostics), and
// the `{ diagnostics }` value that carries them (exit 2 at the command line).

export interface Diagnostic {
  /** The parameter (or "scope", "environment", ...) the problem is about. */
  readonly scope: string
  readonly problem: string
}

export interface Diagnostics {
  readonly diagnostics: ReadonlyArray<Diagnostic>
}
