/** The pricing module's public entry for other modules: the Calculator's run (metered, or as system work). */
export { calculate } from './service.ts';
