/** The demo catalogue (prisma/seed/demo-catalogue.json) that tests and the benchmark start from. */
import path from 'node:path';

/** Every demo user's password, and the kit's default password for the users it creates. */
export const DEMO_PASSWORD = 'demo-password-1';
export const DEMO_CATALOGUE_PATH = path.resolve(import.meta.dirname, '../prisma/seed/demo-catalogue.json');
