import { defineRoute } from '../../define-route.ts';
import { preferencesReply } from './preferences-reply.ts';

export default defineRoute({
  method: 'get',
  path: '/notifications/preferences',
  document: `query RestNotificationPreferences {
    notificationPreferences { __typename ...NotificationPreferencesFields ...ErrorFields } }`,
  respond: preferencesReply,
});
