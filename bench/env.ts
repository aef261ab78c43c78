/** The bench measures the service as deployed: the same NODE_ENV default as `npm start` (src/env.ts). */
export { NODE_ENV_SOURCE } from '../src/env.ts';
