// The hint beside a budgetExceeded value: what budget would fit, or `--parts`. The CLI prints it
// on stderr; the MCP bundle tool returns it beside the value (the value's bytes stay the CLI's),
// each naming the fields its own way (src/usecases/spelling.ts).
import type { BudgetExceeded, PartsExceeded } from "../bundle/index.js"
import type { FieldNaming } from "../tokens.js"

/**
 * The one stderr line beside a budgetExceeded value (a value, exit 0): what would fit, so an agent
 * loop is not handed an empty context in silence (bundle-contract.md section 1).
 */
export const exceededLine = (value: BudgetExceeded | PartsExceeded, spell: Pick<FieldNaming, "cite">): string => {
  const budget = spell.cite("budget")
  if ("oversized" in value) {
    const largest = value.oversized.reduce((m, o) => (o.length > m.length ? o : m), value.oversized[0])
    return `specbundle: budgetExceeded: ${largest.item} alone needs ${largest.length} code units, over ${budget} ${value.budget} for one part; ${budget} ${fittingBudget(largest.length, value.budget)} or more fits`
  }
  // protectedLength is already the least budget that returns a bundle (contract section 2).
  return `specbundle: budgetExceeded: the fully cut bundle needs ${value.protectedLength} code units, over ${budget} ${value.budget}; ${budget} ${value.protectedLength} or more fits, or ${spell.cite("parts")} splits it`
}

/**
 * The least budget a value measured at `length` under `budget` fits: the value quotes its own
 * budget, so its length moves with the budget's digits (a fixed point, reached in a step or two).
 */
export const fittingBudget = (length: number, budget: number): number => {
  let n = length
  for (let i = 0; i < 4; i++) n = length - String(budget).length + String(n).length
  return n
}
