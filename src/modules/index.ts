/** Every module's GraphQL registrations. */
import './auth/index.ts';
