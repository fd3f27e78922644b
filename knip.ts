// Unused files, exports, types and dependencies (`npm run lint:unused`), every rule at error. Entries beyond what
// knip's plugins find (Next.js routes, vitest tests and setup, eslint, prisma): processes the supervisor starts by
// path, npm script CLIs, scripts and benchmarks.
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  workspaces: {
    '.': {
      entry: [
        'worker/main.ts',
        'src/server/process/*-main.ts',
        'scripts/*.{ts,mjs}',
        'bench/*.ts',
        '{src,test}/**/*.test.{ts,tsx}',
        // The vitest projects' globalSetup (by path): knip's vitest plugin misses them when run with --include files.
        'test/support/*-global-setup.ts',
        // Child processes test helpers start by path (rr-clients.ts).
        'test/support/rr-requester-*.ts',
        // Plugin bundles (issue 33): packed into archives and run by Flotilla's plugin host, never imported.
        'examples/plugins/*/{server,ui}.js',
        // The plugin process's bootstrap, started by path (plugins/runtime/sandbox.ts).
        'src/modules/feature/plugins/runtime/child/bootstrap.mjs',
      ],
      // src/generated is skipped as gitignored; the fixture trees hold deliberate dead code.
      ignore: ['test/architecture/fixtures/**'],
      // Imported only by the generated Prisma client, which knip does not read.
      ignoreDependencies: ['@prisma/client'],
      // Maven, run by scripts/artemis-dist.ts, comes from the machine, not from npm; so do the util-linux tools the
      // database chaos test mounts and fills a tmpfs with (test/chaos/database-faults.e2e.test.ts).
      ignoreBinaries: ['mvn', 'mount', 'umount', 'fallocate'],
    },
    // The REST client (issue 35): its package entry (src/index.ts, found from package.json) and its example scripts.
    'packages/client': {
      entry: ['examples/*.ts'],
    },
  },
  rules: {
    files: 'error',
    exports: 'error',
    types: 'error',
    enumMembers: 'error',
    duplicates: 'error',
    dependencies: 'error',
    devDependencies: 'error',
    unlisted: 'error',
    unresolved: 'error',
    binaries: 'error',
  },
};

export default config;
