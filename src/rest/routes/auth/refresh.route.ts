import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/auth/refresh',
  public: true,
  document: `mutation RestRefresh($refresh: String) {
    refresh(refresh: $refresh) { __typename ... on TokenPair { access refresh } ...ErrorFields } }`,
  variables: (req) => ({ refresh: typeof body(req).refresh === 'string' ? body(req).refresh : null }),
  respond: (r) => {
    if (r.__typename === 'TokenPair') return [200, { access: r.access, refresh: r.refresh }];
    return undefined;
  },
});
