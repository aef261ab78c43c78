/**
 * The scenarios module's public entry for other modules: what a saved scenario stores (its summary as run, its
 * current figures as re-priced) and how to read them back.
 */
export { readSummary, type ScenarioSummary } from './summary.ts';
export { readCurrent, type CurrentCheapest, type ScenarioCurrent } from './current.ts';
