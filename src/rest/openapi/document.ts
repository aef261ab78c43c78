/**
 * The OpenAPI 3.1 document of /api/v1: base.yaml (info, security, shared components) plus one paths/<domain>.yaml per
 * group of routes, merged once at start. The YAML is the contract as written from the API specification; nothing
 * here derives it from the GraphQL schema, so a drift between the two shows up in the conformance tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

type Json = Record<string, any>;

const here = new URL('./', import.meta.url);
const read = (file: URL): Json => parse(readFileSync(file, 'utf8')) ?? {};

/** Merges `section` maps (paths, components.schemas ...), refusing a name defined twice so no file silently wins. */
function mergeInto(target: Json, source: Json | undefined, where: string): void {
  for (const [key, value] of Object.entries(source ?? {})) {
    if (key in target) throw new Error(`OpenAPI: ${where}.${key} is defined twice`);
    target[key] = value;
  }
}

export function loadOpenApiDocument(): Json {
  const document = read(new URL('base.yaml', here));
  document.paths ??= {};
  document.components ??= {};
  const pathsDir = new URL('paths/', here);
  for (const file of readdirSync(pathsDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const part = read(new URL(file, pathsDir));
    mergeInto(document.paths, part.paths, 'paths');
    for (const [section, entries] of Object.entries((part.components ?? {}) as Json)) {
      document.components[section] ??= {};
      mergeInto(document.components[section], entries, `components.${section}`);
    }
  }
  return document;
}

/** The document as served: parsed once, shared read-only. */
export const openApiDocument: Readonly<Json> = loadOpenApiDocument();
