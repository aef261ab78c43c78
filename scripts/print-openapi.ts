/** Prints the merged OpenAPI document to a file (default: stdout), for linters and client generators. */
import { writeFileSync } from 'node:fs';
import { loadOpenApiDocument } from '../src/rest/openapi/document.ts';

const out = process.argv[2];
const text = `${JSON.stringify(loadOpenApiDocument(), null, 2)}\n`;
if (out) writeFileSync(out, text);
else process.stdout.write(text);
