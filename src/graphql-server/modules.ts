/** Every module's GraphQL registrations (each module's graphql.ts). */
import '../modules/auth/graphql.ts';
import '../modules/billing/graphql.ts';
import '../modules/organisations/graphql.ts';
import '../modules/users/graphql.ts';
import '../modules/scenarios/graphql.ts';
import '../modules/deal/graphql.ts';
import '../modules/pricing/graphql.ts';
import '../modules/matrix/graphql.ts';
import '../modules/structuring/graphql.ts';
import '../modules/catalogue/graphql.ts';
import '../modules/abn/graphql.ts';
import '../modules/mcp-connections/graphql.ts';
import '../modules/rate-cards/graphql.ts';
import '../modules/rate-cards/import/graphql.ts';
import '../modules/reports/graphql.ts';
import '../modules/notifications/graphql.ts';
import '../modules/approvals/graphql.ts';
