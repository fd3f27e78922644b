// Architecture boundaries of src/, worker/, test/, bench/ and scripts/ (layout: src/base, src/modules/{kernel,platform,feature}/<id>,
// src/installation, src/server, src/ui, src/app). Every rule is an error; `npm run lint:deps` fails on any.
// test/architecture/boundaries.test.ts shows each rule failing on a fixture tree. Paths are relative to baseDir.

/** A module's public entries: descriptor, server surface, browser surface, and a read side's own entry. */
const PUBLIC_ENTRY = '^src/modules/[^/]+/[^/]+/(index|module|ui|read/index)\\.ts$';
const TEST_FILE = '\\.test\\.tsx?$'; // also *.int.test.ts
const PRODUCTION = '^(src|worker)/';
const ROUTER = '^src/modules/[^/]+/[^/]+/server/.+\\.router\\.ts$';
const CONTRIBUTIONS = '^src/modules/[^/]+/[^/]+/ui/contributions\\.tsx?$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles, type-only imports included.',
      from: { path: PRODUCTION },
      to: { circular: true },
    },
    {
      name: 'base-is-ground-floor',
      severity: 'error',
      comment: 'src/base builds on nothing of the application but the generated Prisma client.',
      from: { path: '^src/base/' },
      to: { path: PRODUCTION, pathNot: '^src/(base|generated)/' },
    },
    {
      name: 'kernel-not-upward',
      severity: 'error',
      from: { path: '^src/modules/kernel/' },
      to: { path: '^src/modules/(platform|feature)/' },
    },
    {
      name: 'platform-not-feature',
      severity: 'error',
      from: { path: '^src/modules/platform/' },
      to: { path: '^src/modules/feature/' },
    },
    {
      name: 'commands-above-clusters-and-broker',
      severity: 'error',
      comment:
        'The broker command sequence (platform/commands) builds on broker and clusters and serves the features ' +
        '(and mcp): the platform modules below it never import it. It imports no feature (platform-not-feature).',
      from: { path: '^src/modules/platform/(broker|clusters|governance|scrape)/' },
      to: { path: '^src/modules/platform/commands/' },
    },
    {
      name: 'contract-imports-no-module',
      severity: 'error',
      comment:
        'The module contract (kernel/plugin: descriptor, registry, extension points, toggles, manifest) is what every ' +
        'module builds on, so it imports none of them: an import back would make a module cycle.',
      from: { path: '^src/modules/kernel/plugin/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/kernel/plugin/' },
    },
    {
      name: 'read-side-not-writer',
      severity: 'error',
      comment:
        "A module's read side (<module>/read/: queries over the tables the module writes) stands on its own: it " +
        'imports nothing of its module outside read/, so what reads the tables never loads what writes them.',
      from: { path: '^src/modules/([^/]+/[^/]+)/read/' },
      to: { path: '^src/modules/$1/', pathNot: '^src/modules/$1/read/' },
    },
    {
      name: 'scrape-read-only',
      severity: 'error',
      comment:
        'The scrape writes, the others read: another module imports the scrape only through its read entry ' +
        '(platform/scrape/read/index.ts). Its tests may seed the tables through the writer entry.',
      from: { path: '^src/modules/', pathNot: ['^src/modules/platform/scrape/', TEST_FILE] },
      to: { path: '^src/modules/platform/scrape/', pathNot: '^src/modules/platform/scrape/read/' },
    },
    {
      name: 'production-not-test',
      severity: 'error',
      comment: 'Only test files beside the code may use test/ (its support code).',
      from: { path: PRODUCTION, pathNot: TEST_FILE },
      to: { path: ['^test/', TEST_FILE] },
    },
    {
      name: 'production-not-test',
      severity: 'error',
      comment: 'Test files beside the code may use test/support, not the rest of test/.',
      from: { path: `${PRODUCTION}.*${TEST_FILE}` },
      to: { path: '^test/', pathNot: '^test/support/' },
    },
    {
      name: 'modules-not-roof',
      severity: 'error',
      comment: 'Modules are composed by the roof; they never reach up into it. Their integration tests may start it.',
      from: { path: '^src/modules/', pathNot: TEST_FILE },
      to: { path: '^(src/(server|installation|app)|worker)/' },
    },
    {
      name: 'ui-not-roof',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/(server|app)/' },
    },
    {
      name: 'public-entry-only',
      severity: 'error',
      comment:
        "Outside a module, only its index.ts, module.ts and ui.ts may be imported. $1 is the importer's own module " +
        'folder, or for importers outside modules a top folder (src/server, worker/, ...) that no module path starts with.',
      from: { path: '^(src/modules/[^/]+/[^/]+/|src/(?!modules/|installation/)[^/]+|worker/)' },
      to: { path: '^src/modules/[^/]+/[^/]+/', pathNot: ['^$1', PUBLIC_ENTRY] },
    },
    {
      name: 'installation-composes',
      severity: 'error',
      comment:
        'The installation wires modules: their descriptors and entries, and their routers and UI contributions, ' +
        'which nothing else may import.',
      from: { path: '^src/installation/' },
      to: { path: '^src/modules/[^/]+/[^/]+/', pathNot: [PUBLIC_ENTRY, ROUTER, CONTRIBUTIONS] },
    },
    {
      name: 'production-not-tools',
      severity: 'error',
      comment:
        'bench/ and scripts/ use the product (to time it, start it, migrate it); the product never imports them.',
      from: { path: PRODUCTION },
      to: { path: '^(bench|scripts)/' },
    },
    {
      name: 'scripts-through-entries',
      severity: 'error',
      comment:
        "An operator's script (start, migrate, the demo fleet, the docs generators) uses modules as the roof does: " +
        'through their public entries. Benchmarks, like tests, may reach into a module to time one part of it.',
      from: { path: '^scripts/' },
      to: { path: '^src/modules/[^/]+/[^/]+/', pathNot: PUBLIC_ENTRY },
    },
    {
      name: 'tools-not-app',
      severity: 'error',
      comment: 'Route files are for Next.js alone: a benchmark or a script reaches the product through its runtime.',
      from: { path: '^(bench|scripts)/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'broker-libraries-in-broker',
      severity: 'error',
      from: { path: PRODUCTION, pathNot: '^src/modules/platform/broker/' },
      to: { path: '(^|/)node_modules/rhea/|^rhea$' },
    },
  ],
  options: {
    // Not cruised: dependencies, build output, the generated Prisma client (imports into it are still seen, and
    // allowed) and the deliberately violating fixture trees.
    doNotFollow: { path: ['(^|/)node_modules/', '^src/generated/'] },
    exclude: { path: ['^\\.next/', '^test/architecture/fixtures/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
      mainFiles: ['index'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    skipAnalysisNotInRules: true,
  },
};
