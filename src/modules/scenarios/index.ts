/**
 * The scenarios module's public entry for other modules and the surfaces: recording a run, what a saved scenario
 * stores (its summary as run, its current figures as re-priced) and how to read them back.
 */
export { recordRun } from './record-run.ts';
export { readSummary, scenarioSummary, type CheapestRow, type ScenarioSummary } from './summary.ts';
export { readCurrent, type CurrentCheapest, type ScenarioCurrent } from './current.ts';
