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
import reactivateSubscription from './billing/reactivate.route.ts';
import createCheckoutSession from './billing/checkout-session.route.ts';
import getFeatureFlags from './feature-flags/get.route.ts';
import calculate from './calculator/calculate.route.ts';
import recalculate from './calculator/recalculate.route.ts';
import financiers from './calculator/financiers.route.ts';
import promoteScenario from './calculator/promote-scenario.route.ts';
import matrix from './matrix/matrix.route.ts';
import matrixCalculator from './matrix/matrix-calculator.route.ts';
import whatWouldItTake from './structuring/what-would-it-take.route.ts';
import assetSearch from './assets/search.route.ts';
import updateAsset from './assets/update.route.ts';
import abnLookup from './calculator/abn-lookup.route.ts';
import revokeMcpConnection from './mcp-connections/revoke.route.ts';
import createProduct from './products/create.route.ts';
import updateProduct from './products/update.route.ts';
import rateCardVersionDiff from './rate-card-versions/diff.route.ts';
import restoreRateCardVersion from './rate-card-versions/restore.route.ts';
import previewRateCardImport from './rate-cards/import-preview.route.ts';
import applyRateCardImport from './rate-cards/import.route.ts';
import reportDuplicates from './reports/duplicates.route.ts';
import fileIssueReport from './reports/file.route.ts';
import getNotificationPreferences from './notifications/get-preferences.route.ts';
import updateNotificationPreferences from './notifications/update-preferences.route.ts';
import registerDevice from './notifications/register-device.route.ts';
import unregisterDevice from './notifications/unregister-device.route.ts';
import listApprovals from './approvals/list.route.ts';
import approvalOptions from './approvals/options.route.ts';
import updateApproval from './approvals/update.route.ts';

export const routes: RouteDefinition[] = [
  assetSearch,
  updateAsset,
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
  reactivateSubscription,
  createCheckoutSession,
  getFeatureFlags,
  calculate,
  recalculate,
  financiers,
  matrix,
  matrixCalculator,
  whatWouldItTake,
  promoteScenario,
  revokeMcpConnection,
  createProduct,
  updateProduct,
  rateCardVersionDiff,
  restoreRateCardVersion,
  previewRateCardImport,
  applyRateCardImport,
  reportDuplicates,
  fileIssueReport,
  getNotificationPreferences,
  updateNotificationPreferences,
  registerDevice,
  unregisterDevice,
  listApprovals,
  approvalOptions,
  updateApproval,
];
