import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/auth/login',
  public: true,
  document: `mutation RestLogin($email: String!, $password: String!) {
    login(email: $email, password: $password) { __typename ... on TokenPair { access refresh } ...ErrorFields } }`,
  variables: (req) => ({ email: body(req).email, password: body(req).password }),
  respond: (r) => (r.__typename === 'TokenPair' ? [200, { access: r.access, refresh: r.refresh }] : undefined),
});
