/** The catalogue module's GraphQL registrations. */
import './asset-search.query.ts';
import './asset-rate-bracket.types.ts';
import './asset.types.ts';
import './assets.query.ts';
import './asset-mutations.ts';
