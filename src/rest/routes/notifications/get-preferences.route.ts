import { timezoneSourceOfGraphQLName } from '../../../lib/vocabulary.ts';
import { defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'get',
  path: '/notifications/preferences',
  document: `query RestNotificationPreferences {
    notificationPreferences { __typename ...NotificationPreferencesFields ...ErrorFields } }`,
  respond: (r) => {
    if (r.__typename !== 'NotificationPreferences') return undefined;
    const { __typename, ...preferences } = r;
    // GraphQL's TimezoneSource names the empty source `none`; the spec's body sends ''.
    return [200, { ...preferences, timezone_source: timezoneSourceOfGraphQLName(preferences.timezone_source) }];
  },
});
