/** `npm run schema:print`: writes schema.graphql from the code. Never edit schema.graphql by hand. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printedSchema } from '../src/graphql-server/schema.ts';

writeFileSync(path.resolve(import.meta.dirname, '../schema.graphql'), printedSchema());
console.log('schema.graphql written');
