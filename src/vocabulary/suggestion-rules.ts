/**
 * Which rule found a suggestion (SPEC §7), declared once for the contract and the suggestion index:
 * related parts from the tables, longest prefix, all words, closest names, and by number.
 */
export const SUGGESTION_RULES = ['related', 'prefix', 'words', 'close', 'number'] as const;

export type SuggestionRule = (typeof SUGGESTION_RULES)[number];
