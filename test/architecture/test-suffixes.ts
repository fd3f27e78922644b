// A test file's suffix chooses its vitest project, and with it what the project starts for it (vitest.config.ts): a
// file that starts brokers, opens a database or drives Chromium must carry the suffix of a project that provides them,
// or it runs where they are missing (a broker suite named *.int.test.ts would run without the broker pool's set-up).
// Type-only imports need nothing at run time and do not count.

export type Suffix = 'unit' | 'int' | 'broker' | 'browser' | 'e2e';

/** What a kit needs at run time, by the projects that provide it. */
const KIT_PROJECTS: ReadonlyArray<{ kit: RegExp; projects: readonly Suffix[] }> = [
  // The run's shared brokers (tls-material and fault-proxy start no broker).
  { kit: /^@test\/artemis\/(lease|pool|ha-pair-behind-proxy)\.ts$/, projects: ['broker', 'browser'] },
  // A topology of the file's own fetches the distribution itself: an e2e file may start one beside its app (the
  // chaos suites, which kill what they start, keep their own broker: ADR 20).
  { kit: /^@test\/artemis\/index\.ts$/, projects: ['broker', 'browser', 'e2e'] },
  // Chromium, and the app it drives, which needs the production build: both made by the browser project's set-up.
  { kit: /^@test\/(browser|browser-cluster)\.ts$/, projects: ['browser'] },
  { kit: /^@test\/(database|secured-runtime|worker-kit)\.ts$/, projects: ['int', 'broker', 'browser', 'e2e'] },
];

export function suffixOf(file: string): Suffix {
  const match = /\.(int|broker|browser|e2e)\.test\.ts$/.exec(file);
  return (match?.[1] as Suffix | undefined) ?? 'unit';
}

/** `import … from '<specifier>'` lines that bring values (not `import type`). */
function valueImports(source: string): string[] {
  return [...source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)].map((match) => match[1] ?? '');
}

export function misplacedSuites(files: ReadonlyArray<{ path: string; source: string }>): string[] {
  return files.flatMap(({ path, source }) => {
    const suffix = suffixOf(path);
    return valueImports(source).flatMap((specifier) => {
      const needs = KIT_PROJECTS.find(({ kit }) => kit.test(specifier));
      if (!needs || needs.projects.includes(suffix)) return [];
      const names = needs.projects.map((project) => `*.${project}.test.ts`).join(' or ');
      return [`${path} imports ${specifier}, which needs ${names}`];
    });
  });
}
