/** The route table: every /api/v1 endpoint, one file each, grouped by domain. */
import type { RouteDefinition } from '../define-route.ts';
import login from './auth/login.route.ts';
import refresh from './auth/refresh.route.ts';
import logout from './auth/logout.route.ts';
import resendVerification from './auth/resend-verification.route.ts';
import forgotPassword from './auth/forgot-password.route.ts';
import listApiTokens from './api-tokens/list.route.ts';
import createApiToken from './api-tokens/create.route.ts';
import revokeApiToken from './api-tokens/revoke.route.ts';
import getOrganisation from './organisations/get.route.ts';
import updateUser from './users/update.route.ts';
import getSubscription from './billing/subscription.route.ts';
import getFeatureFlags from './feature-flags/get.route.ts';
import calculate from './calculator/calculate.route.ts';
import recalculate from './calculator/recalculate.route.ts';
import financiers from './calculator/financiers.route.ts';
import promoteScenario from './calculator/promote-scenario.route.ts';
import matrix from './matrix/matrix.route.ts';
import matrixCalculator from './matrix/matrix-calculator.route.ts';
import assetSearch from './assets/search.route.ts';
import abnLookup from './calculator/abn-lookup.route.ts';
import listApprovals from './approvals/list.route.ts';
import approvalOptions from './approvals/options.route.ts';
import updateApproval from './approvals/update.route.ts';

export const routes: RouteDefinition[] = [
  assetSearch,
  abnLookup,
  login,
  refresh,
  logout,
  resendVerification,
  forgotPassword,
  listApiTokens,
  createApiToken,
  revokeApiToken,
  getOrganisation,
  updateUser,
  getSubscription,
  getFeatureFlags,
  calculate,
  recalculate,
  financiers,
  matrix,
  matrixCalculator,
  promoteScenario,
  listApprovals,
  approvalOptions,
  updateApproval,
];
