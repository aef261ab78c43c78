import { body, defineRoute } from '../../define-route.ts';

/** Not in the spec ("endpoint not shown"): docs/notifications.md. */
export default defineRoute({
  method: 'post',
  path: '/notifications/devices',
  document: `mutation RestRegisterDevice($token: String!, $platform: DevicePlatform!, $timezone: String, $web_push_keys: WebPushKeysInput) {
    registerDevice(token: $token, platform: $platform, timezone: $timezone, webPushKeys: $web_push_keys) {
      __typename ... on Device { id platform timezone created_at updated_at } ...ErrorFields } }`,
  variables: (req) => ({
    token: body(req).token,
    platform: body(req).platform,
    timezone: body(req).timezone,
    web_push_keys: body(req).web_push_keys,
  }),
  respond: (r) => {
    if (r.__typename !== 'Device') return undefined;
    const { __typename, ...device } = r;
    return [200, device];
  },
});
