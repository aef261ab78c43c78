/**
 * The layer rules, checked in CI (`npm run lint`). Floors, bottom up; a floor imports only floors below it:
 *   kit        src/lib/ (ground: the caller, policy, plans, configuration, the request's service context, database)
 *              and src/graphql/ (the Pothos builder, scalars, enums, shared error types, the context type, plugins
 *              that need no module). The kit imports no module and no surface.
 *   modules    src/modules/<module>/, one folder per concept. A module reaches another module only through that
 *              module's public entries: its index.ts, and its GraphQL type files (*.types.ts object refs and
 *              *.loader.ts dataloaders) that another module's fields return. Services and engines carry no GraphQL.
 *   surfaces   src/graphql-server/ (schema assembly, the Yoga server, cost limits), src/rest/ (the REST table over
 *              GraphQL operations), src/mcp/ (the AI-assistant endpoint), src/webhooks/ (payment processor), src/http/
 *              (HTTP plumbing); and the composition files src/*.ts (app, main, app-services). A surface reaches a
 *              module only through its index.ts (the schema assembly also imports each module's graphql.ts).
 * No import cycles anywhere. `npx depcruise src --config .dependency-cruiser.cjs --output-type archi` draws the
 * folders; test/architecture/floors.test.ts proves these rules fire.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order matter and floors meaningless.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-imports-no-floor-above',
      severity: 'error',
      comment: 'src/lib is the ground floor: it imports nothing of ours outside it, and no GraphQL library.',
      from: { path: '^src/lib/' },
      to: {
        path: '^src/(?!lib/|generated/)|^node_modules/(graphql|graphql-yoga|@pothos)/',
      },
    },
    {
      name: 'graphql-kit-imports-only-the-kit',
      severity: 'error',
      comment: 'src/graphql is the kit the modules build on: it imports src/lib and itself, no module, no surface.',
      from: { path: '^src/graphql/' },
      to: { path: '^src/(?!lib/|graphql/|generated/)' },
    },
    {
      name: 'modules-import-no-surface',
      severity: 'error',
      comment: 'Modules sit below the surfaces and the composition files: they import the kit and other modules only.',
      from: { path: '^src/modules/' },
      to: { path: '^src/(?!lib/|graphql/|modules/|generated/)' },
    },
    {
      name: 'modules-meet-through-public-entries',
      severity: 'error',
      comment:
        "A module reaches another module through its index.ts, or the GraphQL type files (*.types.ts, *.loader.ts) another module's fields return.",
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/',
        pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/[^/]+\\.(types|loader)\\.ts$'],
      },
    },
    {
      name: 'surfaces-use-public-entries',
      severity: 'error',
      comment: "The surfaces and the composition reach a module only through its index.ts (the schema assembly also imports each module's graphql.ts, its registrations).",
      from: { path: '^src/(?!lib/|graphql/|modules/|generated/)' },
      to: {
        path: '^src/modules/',
        pathNot: ['^src/modules/[^/]+/index\\.ts$', '^src/modules/.+/graphql\\.ts$'],
      },
    },
    {
      name: 'schema-assembly-imports-registrations',
      severity: 'error',
      comment: "Only the schema assembly (src/graphql-server/modules.ts) imports a module's graphql.ts.",
      from: { path: '^src/', pathNot: '^src/graphql-server/modules\\.ts$|^src/modules/' },
      to: { path: '^src/modules/.+/graphql\\.ts$' },
    },
    {
      name: 'services-carry-no-graphql',
      severity: 'error',
      comment: 'Services, engines and error classes are plain TypeScript: GraphQL types live in *.types.ts and graphql.ts.',
      from: {
        path: [
          '^src/modules/.*/(service|errors|engine|finance|criteria|join|rows|results|recalculate|deal|validate|model|snapshot)\\.ts$',
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
