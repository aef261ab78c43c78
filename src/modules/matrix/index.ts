/** The matrix module's public entry for other modules: the Matrix Calculator's run (metered, or as system work). */
export { runMatrixCalculator } from './service.ts';
