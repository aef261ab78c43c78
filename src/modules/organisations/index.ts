/** The organisations module's public entry for other modules. */
export { lockOrganisation } from './lock.ts';
