/** The demo catalogue and password that tests and the benchmark start from: the service's own (src/lib/startup.ts). */
export { DEMO_CATALOGUE_PATH, DEMO_PASSWORD } from '../src/lib/startup.ts';
