/** The approvals module's public entry for other modules and the surfaces. */
export { MAX_REST_APPROVALS } from './validate.ts';
