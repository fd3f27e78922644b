// The second half of `npm run build` (after `next build`): each process the supervisor starts, bundled into one ES
// module (ADR 39). Packages stay outside the bundle and load from node_modules as they would under tsx; only the
// project's own TypeScript is bundled, so a start reads one file instead of transpiling hundreds through tsx.
import { build } from 'esbuild';
import { bundleName, SERVER_BUNDLE_FOLDER, SERVER_ENTRIES, SERVER_PROCESSES } from '@/server/process/build.ts';

const started = Date.now();
// One build for the three entries: the files they share are read and parsed once; each output is still whole.
await build({
  entryPoints: Object.fromEntries(SERVER_PROCESSES.map((name) => [bundleName(name), SERVER_ENTRIES[name]])),
  outdir: SERVER_BUNDLE_FOLDER,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  // Bundling may rename a top-level name two files share; a class's or function's `name` must stay what the
  // source says (error names, log fields).
  keepNames: true,
  // For a person reading a stack trace: `NODE_OPTIONS=--enable-source-maps` maps the bundle's lines to the sources.
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
});
console.log(`server bundles written in ${String(Date.now() - started)} ms`);
