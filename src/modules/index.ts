/** Every module's GraphQL registrations. */
import './auth/index.ts';
import './billing/index.ts';
import './organisations/index.ts';
import './users/index.ts';
import './scenarios/index.ts';
import './pricing/graphql.ts';
import './matrix/graphql.ts';
import './catalogue/asset-search.query.ts';
import './abn/index.ts';
