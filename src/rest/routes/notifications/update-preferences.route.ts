import { timezoneSourceOfGraphQLName } from '../../../lib/vocabulary.ts';
import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'patch',
  path: '/notifications/preferences',
  document: `mutation RestUpdateNotificationPreferences($input: UpdateNotificationPreferencesInput!) {
    updateNotificationPreferences(input: $input) { __typename ...NotificationPreferencesFields ...ErrorFields } }`,
  variables: (req) => ({ input: body(req) }),
  respond: (r) => {
    if (r.__typename !== 'NotificationPreferences') return undefined;
    const { __typename, ...preferences } = r;
    // GraphQL's TimezoneSource names the empty source `none`; the spec's body sends ''.
    return [200, { ...preferences, timezone_source: timezoneSourceOfGraphQLName(preferences.timezone_source) }];
  },
});
