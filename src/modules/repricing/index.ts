/**
 * The re-pricing module's public entry: the worker that keeps saved scenarios' current figures true after catalogue
 * changes, for the process that runs it (src/app.ts, src/main.ts) and for tests that drive it (docs/scenarios.md).
 */
export {
  createRepricingWorker,
  repricePending,
  type RepricingWorker,
} from './worker.ts';
