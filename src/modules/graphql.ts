/** Every module's GraphQL registrations (each module's graphql.ts). */
import './auth/graphql.ts';
import './billing/graphql.ts';
import './organisations/graphql.ts';
import './users/graphql.ts';
import './scenarios/graphql.ts';
import './deal/graphql.ts';
import './pricing/graphql.ts';
import './matrix/graphql.ts';
import './structuring/graphql.ts';
import './catalogue/graphql.ts';
import './abn/graphql.ts';
import './mcp/graphql.ts';
import './rate-cards/graphql.ts';
import './rate-cards/import/graphql.ts';
import './reports/graphql.ts';
import './notifications/graphql.ts';
import './approvals/graphql.ts';
