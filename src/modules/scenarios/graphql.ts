import './scenario.types.ts';
import './scenarios.query.ts';
import './promote-scenario.mutation.ts';
import './rename-scenario.mutation.ts';
import './delete-scenario.mutation.ts';
