import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/auth/resend-verification',
  public: true,
  document: `mutation RestResendVerification($email: String!) {
    resendVerification(email: $email) { __typename ... on Message { message } ...ErrorFields } }`,
  variables: (req) => ({ email: body(req).email }),
  respond: (r) => (r.__typename === 'Message' ? [200, { message: r.message }] : undefined),
});
