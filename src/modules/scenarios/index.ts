/** The scenarios module's public entry for other modules and the surfaces. */
export { recordRun } from './record-run.ts';
export { scenarioSummary, type CheapestRow } from './summary.ts';
