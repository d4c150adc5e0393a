/**
@module The search tools' default budgets, apart from the engines (`search-run.ts`), which load on
the first search: building the tools (and replaying their cards) reads these without loading them.
*/

/** Default budget of one search. */
export const SEARCH_TIMEOUT_MS = 30_000;
/** Default cap of raw grep output. */
export const GREP_RAW_OUTPUT_MAX_BYTES = 20_000_000;
