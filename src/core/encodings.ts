// The encodings `bundle --tokens` counts in: those of OpenAI's current and previous model families.
// Alone in this file, with no imports, so the command definitions (all `--help` evaluates) can name
// them without loading the composer or a tokenizer.
export const ENCODINGS = ["o200k_base", "cl100k_base"] as const
export type Encoding = (typeof ENCODINGS)[number]
