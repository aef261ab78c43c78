/**
 * The layer rules, checked in CI (`npm run lint`). Layers, bottom up:
 *   src/lib/        ground floor: imports nothing of ours above it
 *   src/modules/    one folder per concept; a module reaches another module's use cases only through its public
 *                   entry (index.ts), never its service.ts; services and error classes carry no GraphQL
 *   src/graphql/    the Pothos builder, scalars, shared error types, request context
 *   src/rest/       the REST table: maps HTTP onto GraphQL operations, no business logic
 *   src/app.ts, main.ts, schema.ts   composition
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order matter and layers meaningless.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-imports-no-layer-above',
      severity: 'error',
      comment: 'src/lib is the ground floor: it imports no module, no GraphQL (layer or library), no HTTP or REST layer.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(modules|graphql|rest|http)/|^src/(app|main|schema)\\.ts$|^node_modules/(graphql|graphql-yoga|@pothos)/' },
    },
    {
      name: 'no-foreign-service',
      severity: 'error',
      comment: "A module uses another module's use cases only through that module's public entry (index.ts).",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: ['^src/modules/[^/]+/service\\.ts$', '^src/modules/[^/]+/[^/]+\\.service\\.ts$'], pathNot: '^src/modules/$1/' },
    },
    {
      name: 'layers-use-public-entries',
      severity: 'error',
      comment: "The GraphQL and HTTP layers reach a module's use cases through its public entry (index.ts), as modules do.",
      from: { path: '^src/(graphql|http)/' },
      to: { path: ['^src/modules/[^/]+/service\\.ts$', '^src/modules/[^/]+/[^/]+\\.service\\.ts$'] },
    },
    {
      name: 'services-carry-no-graphql',
      severity: 'error',
      comment: 'Services, engines and error classes are plain TypeScript: GraphQL types live in *.types.ts and graphql.ts.',
      from: {
        path: [
          '^src/modules/.*/(service|errors|engine|finance|criteria|join|rows|recalculate|deal|validate|model|snapshot)\\.ts$',
          '^src/modules/.*/(compare|store|versions|asset-tree|quiet-hours|subject|card)\\.ts$',
          '^src/modules/[^/]+/[^/]+\\.service\\.ts$',
        ],
      },
      to: { path: '^src/graphql/|^node_modules/(graphql|graphql-yoga|@pothos)/' },
    },
    {
      name: 'rest-is-a-table',
      severity: 'error',
      comment: 'REST routes map HTTP onto GraphQL operations; they import no module (no business logic there).',
      from: { path: '^src/rest/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'no-test-code-in-src-or-bench',
      severity: 'error',
      comment: 'src/ never imports tests; bench/ shares code with tests only through testkit/.',
      from: { path: '^(src|bench|testkit)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
