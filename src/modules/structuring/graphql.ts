/** The structuring module's GraphQL registrations. */
import './structuring.types.ts';
import './what-would-it-take.query.ts';
