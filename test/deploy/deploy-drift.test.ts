// The Grafana dashboard and the Prometheus rules in deploy/ name only metrics GET /metrics exposes: every
// `flotilla_…` name in their expressions (panels, template variables, alert rules) must be a family of the
// exposition, rendered here by the real code with every installed source (over no rows) and the process metrics.
// A renamed or removed metric fails this test instead of leaving a blank panel or a rule that never fires.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Database } from '@/base/db/database.ts';
import { installedModules } from '@/installation/modules.ts';
import { resolveModules } from '@/modules/kernel/plugin/index.ts';
import { telemetrySources } from '@/modules/platform/telemetry/module.ts';
import { fleetFamilies, processMetrics, registryOf } from '@/modules/platform/telemetry/server/exposition.ts';

const METRIC = /\bflotilla_[a-z0-9_]+\b/g;
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** Every string under an `expr`, `query` or `definition` key of the dashboard, however deep. */
function dashboardExpressions(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => dashboardExpressions(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string' && ['expr', 'query', 'definition'].includes(key)) found.push(value);
      else dashboardExpressions(value, found);
    }
  }
  return found;
}

/** The rules' `expr:` values (one line each in this file). */
const ruleExpressions = (text: string) => [...text.matchAll(/^\s*expr:\s*(.+)$/gm)].map((match) => match[1] ?? '');

async function exposedNames(): Promise<Set<string>> {
  const registry = resolveModules(installedModules, { environment: {}, stored: new Map() });
  const sources = registry.contributionsTo(telemetrySources).map((contributed) => contributed.value);
  const noRows = { query: () => Promise.resolve([]) } as unknown as Database;
  const families = await fleetFamilies(
    { clusters: [], nodes: [], sweeps: [], jobs: [], exposed: { queues: [], matched: 0 } },
    sources,
    noRows,
    new Date(),
  );
  const text = `${await registryOf(families).metrics()}${await processMetrics(0)}`;
  return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1] ?? ''));
}

describe('deploy/ names only exposed metrics', () => {
  it('every metric of the dashboard and the alerting rules is in the exposition', async () => {
    const exposed = await exposedNames();
    expect(exposed.has('flotilla_queue_depth')).toBe(true);
    expect(exposed.has('flotilla_alerts_open')).toBe(true); // a contributed source's family
    const dashboard = dashboardExpressions(JSON.parse(read('deploy/grafana/flotilla-dashboard.json')));
    const rules = ruleExpressions(read('deploy/prometheus/flotilla-alerts.yml'));
    expect(dashboard.length).toBeGreaterThan(20);
    expect(rules.length).toBeGreaterThan(10);
    const used = new Set([...dashboard, ...rules].flatMap((expression) => expression.match(METRIC) ?? []));
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((name) => !exposed.has(name)).sort()).toEqual([]);
  });
});
