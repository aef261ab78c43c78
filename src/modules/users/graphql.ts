import './users.types.ts';
import './update-user.mutation.ts';
import './me.query.ts';
import './team.types.ts';
import './team.queries.ts';
import './team.mutations.ts';
import './invitations.mutations.ts';
