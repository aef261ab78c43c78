import { timezoneSourceOfGraphQLName } from '../../../lib/vocabulary.ts';
import type { RestReply, Result } from '../../define-route.ts';

/**
 * The saved-scenario threshold travels in a response header: the preferences body is the spec's to the letter, and
 * a REST client still reads back what it set (docs/api-decisions.md).
 */
const SCENARIO_CHANGE_THRESHOLD_HEADER = 'X-Scenario-Change-Threshold';

/** GET and PATCH /notifications/preferences answer the same body and header. */
export function preferencesReply(r: Result): RestReply | undefined {
  if (r.__typename !== 'NotificationPreferences') return undefined;
  const { __typename, scenario_change_threshold, ...preferences } = r;
  // GraphQL's TimezoneSource names the empty source `none`; the spec's body sends ''.
  return [
    200,
    { ...preferences, timezone_source: timezoneSourceOfGraphQLName(preferences.timezone_source) },
    { [SCENARIO_CHANGE_THRESHOLD_HEADER]: String(scenario_change_threshold) },
  ];
}
