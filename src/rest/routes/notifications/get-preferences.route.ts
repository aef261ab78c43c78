import { defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'get',
  path: '/notifications/preferences',
  document: `query RestNotificationPreferences {
    notificationPreferences { __typename ...NotificationPreferencesFields ...ErrorFields } }`,
  respond: (r) => {
    if (r.__typename !== 'NotificationPreferences') return undefined;
    const { __typename, ...preferences } = r;
    return [200, preferences];
  },
});
