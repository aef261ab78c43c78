/** The users module's public entry for other modules. */
export { queueAccountEvent } from './team.notify.ts';
