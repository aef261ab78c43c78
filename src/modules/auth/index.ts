/** The auth module's public entry for other modules and the surfaces. */
export { authenticate, callersOfUsers } from './caller.ts';
export { hashPassword } from './passwords.ts';
export { sha256 } from './tokens.ts';
