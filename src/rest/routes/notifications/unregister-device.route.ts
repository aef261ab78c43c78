import { body, defineRoute } from '../../define-route.ts';

/** The token travels in the body, never in the path or query, so it never reaches an access log. */
export default defineRoute({
  method: 'post',
  path: '/notifications/devices/unregister',
  document: `mutation RestUnregisterDevice($token: String!) {
    unregisterDevice(token: $token) { __typename ...ErrorFields } }`,
  variables: (req) => ({ token: body(req).token }),
  respond: (r) => (r.__typename === 'DeviceUnregistered' ? [204] : undefined),
});
