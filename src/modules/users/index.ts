/** The users module's public entry for other modules. */
export { accountRecipients, queueAccountEvent } from './team.notify.ts';
