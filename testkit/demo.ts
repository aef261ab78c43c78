/** The demo catalogue and password that tests and the benchmark start from: the service's own (src/lib/startup.ts). */
export { DEMO_CATALOGUE_PATH, DEMO_PASSWORD } from '../src/lib/startup.ts';

/** A deal the demo catalogue prices and approves (tests that only need "a good deal" share it). */
export const DEMO_DEAL = Object.freeze({
  cost: '55000',
  cost_gst: true,
  asset_value: 11,
  term: 60,
  advance_arrears: 'arrears',
  repayment_frequency: 'monthly',
  abn_age: 36,
  gst_age: 30,
  credit_score: 720,
});
