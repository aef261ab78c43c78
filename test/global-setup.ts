/** Once per test run: the migrated and demo-seeded databases each test file starts from (testkit/starting-points.ts). */
import { makeStartingPoints } from '../testkit/starting-points.ts';

export default async function setup(): Promise<() => Promise<void>> {
  return makeStartingPoints(process.env.TEST_DATABASE_URL || null);
}
