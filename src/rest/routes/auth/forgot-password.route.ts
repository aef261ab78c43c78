import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/auth/forgot-password',
  public: true,
  document: `mutation RestForgotPassword($email: String!) {
    forgotPassword(email: $email) { __typename ... on Message { message } ...ErrorFields } }`,
  variables: (req) => ({ email: body(req).email }),
  respond: (r) => (r.__typename === 'Message' ? [200, { message: r.message }] : undefined),
});
