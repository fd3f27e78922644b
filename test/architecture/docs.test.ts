// The docs must stay true: every link to a file of the repository points at one that exists, and every code block
// that names its source file (a first line `// <path>`) is quoted verbatim from it — so the module guide's example
// is the real, compiling code, and a doc cannot keep describing code that moved.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const docs = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...readdirSync(path.join(root, 'docs/adr')).map((name) => `docs/adr/${name}`),
];

const LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;
const FENCE = /```(?:ts|tsx)\n([\s\S]*?)```/g;

// Compared line by line without indentation: a quote may be dedented (prettier formats the docs' code too).
const lines = (text: string) => text.split('\n').map((line) => line.trim());

describe('the docs', () => {
  it('cover the README, docs/ and the ADRs', () => {
    expect(docs.length).toBeGreaterThan(15);
  });

  it.each(docs)('%s links only to files that exist', (doc) => {
    const text = readFileSync(path.join(root, doc), 'utf8');
    const missing = [...text.matchAll(LINK)]
      .map((match) => match[1] ?? '')
      .filter((target) => !/^(https?:|mailto:|#)/.test(target))
      .map((target) => path.join(path.dirname(path.join(root, doc)), decodeURI(target.split('#')[0] ?? '')))
      .filter((target) => target.startsWith(root) && !existsSync(target));
    expect(missing.map((target) => path.relative(root, target))).toEqual([]);
  });

  it.each(docs)('%s quotes its named source files verbatim', (doc) => {
    const text = readFileSync(path.join(root, doc), 'utf8');
    const stale: string[] = [];
    for (const [, block = ''] of text.matchAll(FENCE)) {
      const [first = '', ...quoted] = lines(block.trimEnd());
      const source = /^\/\/ ((?:src|test|worker|scripts)\/\S+)$/.exec(first)?.[1];
      if (!source) continue;
      const file = path.join(root, source);
      if (!existsSync(file)) {
        stale.push(`${source} does not exist`);
        continue;
      }
      const wanted = quoted.join('\n');
      if (!lines(readFileSync(file, 'utf8')).join('\n').includes(wanted)) stale.push(`${source}: ${quoted[0] ?? ''}…`);
    }
    expect(stale).toEqual([]);
  });
});
