/** The pricing module's public entry for other modules: the Calculator's run (metered, or as system work). */
export { calculate, type CalculatorResult, type UnmeteredCalculatorResult } from './service.ts';
export type { CalculatorRow } from './rows.ts';
