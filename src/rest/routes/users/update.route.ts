import { body, defineRoute, intParam } from '../../define-route.ts';

const USER_FIELDS =
  'id email first_name last_name organisation_id is_admin is_active is_email_verified created groups { name permissions { id codename } }';

export default defineRoute({
  method: 'put',
  path: '/users/:id',
  document: `mutation RestUpdateUser($id: Int!, $input: UpdateUserInput!) {
    updateUser(id: $id, input: $input) {
      __typename ... on User { ${USER_FIELDS} }
      ... on SeatLimitReachedError { seats { used limit } }
      ...ErrorFields } }`,
  variables: (req) => ({ id: intParam(req.params.id), input: body(req) }),
  respond: (r) => {
    switch (r.__typename) {
      case 'User': {
        const { __typename, ...user } = r;
        return [200, user];
      }
      case 'SeatLimitReachedError':
        return [409, { error: r.message, reason: 'seat_limit_reached', seats: r.seats }];
      case 'LastAdminError':
        return [409, { error: r.message, reason: 'last_admin' }];
      default:
        return undefined;
    }
  },
});
