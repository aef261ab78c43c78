import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/auth/logout',
  public: true,
  document: `mutation RestLogout($refresh: String!) { logout(refresh: $refresh) { __typename ...ErrorFields } }`,
  variables: (req) => ({ refresh: body(req).refresh }),
  respond: (r) => (r.__typename === 'Ok' ? [204] : undefined),
});
