/** The deal module's GraphQL registrations. */
import './deal.types.ts';
