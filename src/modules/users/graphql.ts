import './users.types.ts';
import './update-user.mutation.ts';
import './me.query.ts';
