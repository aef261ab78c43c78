import { body, defineRoute } from '../../define-route.ts';
import { preferencesReply } from './preferences-reply.ts';

export default defineRoute({
  method: 'patch',
  path: '/notifications/preferences',
  document: `mutation RestUpdateNotificationPreferences($input: UpdateNotificationPreferencesInput!) {
    updateNotificationPreferences(input: $input) { __typename ...NotificationPreferencesFields ...ErrorFields } }`,
  variables: (req) => ({ input: body(req) }),
  respond: preferencesReply,
});
