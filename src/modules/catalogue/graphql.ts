/** The catalogue module's GraphQL registrations. */
import './asset-search.query.ts';
