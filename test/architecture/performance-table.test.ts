// Docs that cannot drift: the generated section of docs/performance.md is what bench/results.ts renders from
// bench/results.json and the `bench:*` scripts of package.json (`npm run bench -- --render-only` writes it). And the
// suite's own parts: how a bench reports a figure, how a run's figures merge into the last results, how they render.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { figureLine, reportFigure, RESULTS_FILE_VARIABLE } from '../../bench/report.ts';
import {
  benchmarksOf,
  mergeResults,
  parseFigureLines,
  PERFORMANCE_DOC_PATH,
  readBenchmarks,
  readResults,
  renderedSection,
  renderSection,
  resultRows,
  sectionOf,
  SECTION_END,
  SECTION_START,
  withSection,
  type BenchResults,
} from '../../bench/results.ts';

describe('the generated section of docs/performance.md', () => {
  it('is what bench/results.json renders (run `npm run bench -- --render-only`)', async () => {
    const section = sectionOf(readFileSync(PERFORMANCE_DOC_PATH, 'utf8'));
    expect(section, 'docs/performance.md has lost its generated section').toBeDefined();
    expect(section, 'docs/performance.md is stale: run `npm run bench -- --render-only`').toBe(
      await renderedSection(readResults(), readBenchmarks()),
    );
  });

  it('has a row for every benchmark of package.json and every stored figure', () => {
    const benchmarks = readBenchmarks();
    const results = readResults();
    const rows = resultRows(results, benchmarks);
    expect(benchmarks.length).toBeGreaterThan(10);
    for (const benchmark of benchmarks)
      expect(
        rows.some((row) => row.command === `npm run ${benchmark.script}`),
        benchmark.name,
      ).toBe(true);
    for (const id of Object.keys(results.figures))
      expect(
        rows.some((row) => row.id === id),
        id,
      ).toBe(true);
  });
});

const run = {
  date: '2026-12-05',
  machine: '2 cores, 24 GB, load 1.0 2.0 3.0',
  commit: 'abc1234',
};

describe('mergeResults', () => {
  const previous: BenchResults = {
    figures: {
      'fleet.home-p95': {
        bench: 'fleet',
        figure: 'Fleet home',
        target: 'p95 < 300 ms',
        seen: 'p95 60 ms',
        holds: true,
        date: '2026-12-01',
        machine: 'old',
        commit: 'old1234',
      },
      'metrics.series-7d-p95': {
        bench: 'metrics',
        figure: 'Series',
        target: 'p95 < 100 ms',
        seen: 'p95 38 ms',
        holds: true,
        date: '2026-12-01',
        machine: 'old',
        commit: 'old1234',
      },
    },
  };

  it('replaces a re-measured figure in place, adds a new one last and keeps one not re-measured', () => {
    const merged = mergeResults(previous, {
      bench: 'fleet',
      ...run,
      figures: [
        { id: 'fleet.triage-p95', figure: 'Triage', target: '—', seen: 'p95 20 ms' },
        { id: 'fleet.home-p95', figure: 'Fleet home', target: 'p95 < 300 ms', seen: 'p95 301 ms', holds: false },
      ],
    });
    expect(Object.keys(merged.figures)).toEqual(['fleet.home-p95', 'metrics.series-7d-p95', 'fleet.triage-p95']);
    expect(merged.figures['fleet.home-p95']).toEqual({
      bench: 'fleet',
      figure: 'Fleet home',
      target: 'p95 < 300 ms',
      seen: 'p95 301 ms',
      holds: false,
      ...run,
    });
    expect(merged.figures['metrics.series-7d-p95']).toBe(previous.figures['metrics.series-7d-p95']);
    expect(merged.figures['fleet.triage-p95']).not.toHaveProperty('holds');
    expect(previous.figures['fleet.home-p95']?.seen).toBe('p95 60 ms');
  });
});

describe('renderSection', () => {
  const results: BenchResults = {
    figures: {
      'metrics.series-7d-p95': {
        bench: 'metrics',
        figure: 'A | piped\nfigure',
        target: 'p95 < 100 ms',
        seen: 'p95 120 ms',
        holds: false,
        ...run,
      },
      'fleet.triage-p95': { bench: 'fleet', figure: 'Triage', target: '—', seen: 'p95 20 ms', ...run },
      'fleet.home-p95': {
        bench: 'fleet',
        figure: 'Fleet home',
        target: 'p95 < 300 ms',
        seen: 'p95 45 ms',
        holds: true,
        ...run,
      },
      'gone.figure': { bench: 'gone', figure: 'Removed bench', target: '—', seen: '1 s', ...run },
    },
  };
  const benchmarks = benchmarksOf({
    scripts: {
      test: 'vitest',
      bench: 'node bench/run-all.ts',
      'bench:fleet': 'x',
      'bench:routing': 'y',
      'bench:metrics': 'z',
    },
  });

  it('renders the benchmarks in package.json order, their figures in stored order, an unmeasured one as a pointer', () => {
    expect(benchmarks.map((benchmark) => benchmark.name)).toEqual(['fleet', 'routing', 'metrics']);
    const lines = renderSection(results, benchmarks).split('\n');
    expect(lines[0]).toBe(SECTION_START);
    expect(lines.at(-1)).toBe(SECTION_END);
    const rows = lines.filter((line) => line.startsWith('| ') && !line.startsWith('| Figure') && !line.includes('---'));
    expect(rows).toEqual([
      '| Triage | — | p95 20 ms | — | `npm run bench:fleet` | 2026-12-05 (abc1234) | 2 cores, 24 GB, load 1.0 2.0 3.0 |',
      '| Fleet home | p95 < 300 ms | p95 45 ms | holds | `npm run bench:fleet` | 2026-12-05 (abc1234) | 2 cores, 24 GB, load 1.0 2.0 3.0 |',
      '| routing: not measured through `npm run bench` yet | — | see the [history](#history) below | — | `npm run bench:routing` | — | — |',
      '| A \\| piped figure | p95 < 100 ms | p95 120 ms | **misses** | `npm run bench:metrics` | 2026-12-05 (abc1234) | 2 cores, 24 GB, load 1.0 2.0 3.0 |',
      '| Removed bench | — | 1 s | — | `npm run bench:gone` | 2026-12-05 (abc1234) | 2 cores, 24 GB, load 1.0 2.0 3.0 |',
    ]);
  });

  it('replaces only the section of a document', async () => {
    const document = `# Title\n\nIntro.\n\n${SECTION_START}\nold\n${SECTION_END}\n\n## History\n\n| a |\n`;
    const section = await renderedSection(results, benchmarks);
    const updated = withSection(document, section);
    expect(updated.startsWith('# Title\n\nIntro.\n\n')).toBe(true);
    expect(updated.endsWith(`${SECTION_END}\n\n## History\n\n| a |\n`)).toBe(true);
    expect(sectionOf(updated)).toBe(section);
    expect(() => withSection('# No section\n', section)).toThrow(/no <!-- bench:results:start -->/);
  });
});

describe('reportFigure', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'flotilla-report-'));
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('prints one line and, under `npm run bench`, appends the figure as one JSON line', () => {
    const file = path.join(directory, 'figures.jsonl');
    vi.stubEnv(RESULTS_FILE_VARIABLE, file);
    const printed: unknown[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => printed.push(line));
    reportFigure({ id: 'a.one', figure: 'One', target: '< 1 s', seen: '2 s', holds: false });
    reportFigure({ id: 'a.two', figure: 'Two', target: '—', seen: '3 ms' });
    expect(printed).toEqual(['figure a.one: 2 s (target < 1 s) MISSES', 'figure a.two: 3 ms (target —)']);
    expect(parseFigureLines(readFileSync(file, 'utf8'))).toEqual([
      { id: 'a.one', figure: 'One', target: '< 1 s', seen: '2 s', holds: false },
      { id: 'a.two', figure: 'Two', target: '—', seen: '3 ms' },
    ]);
    rmSync(directory, { recursive: true, force: true });
  });

  it('says holds when the target holds', () => {
    expect(figureLine({ id: 'a.b', figure: 'F', target: 'p95 < 1 s', seen: 'p95 3 ms', holds: true })).toBe(
      'figure a.b: p95 3 ms (target p95 < 1 s) holds',
    );
  });
});
