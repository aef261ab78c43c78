/** The matrix module's public entry for other modules: the Matrix Calculator's run (metered, or as system work). */
export { runMatrixCalculator, type ShownRow, type UnmeteredMatrixCalculatorResult } from './service.ts';
export type { MatrixCalculatorRow } from './rows.ts';
