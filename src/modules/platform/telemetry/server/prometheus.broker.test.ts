// GET /metrics scraped by a real Prometheus (Debian's `prometheus`, started here on a free port with its own config
// and a temporary TSDB; .ci/run installs the package, whose service plays no part): Flotilla scrapes a real broker,
// messages wait on a real queue, Prometheus scrapes /metrics with the scrape token from a file, and a PromQL query
// for the queue's depth answers what the queue grid (the product's API) shows. Prometheus loads deploy/'s alerting
// rules (and promtool checks them), and every dashboard expression is a query it accepts.
// A pooled broker: the queue is under the lease's prefix, and /metrics labels only that prefix's queues.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { eventually } from '@test/eventually.ts';
import { type Listener, serveOverHttp } from '@test/mcp-client.ts';
import { createAnycastQueue, sendManyMessages, uniqueName } from '@test/native-test-helpers.ts';
import type { RestCall } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { createMetricsHandler } from '@/server/http/metrics-route.ts';

const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const TOKEN = `prometheus-test-${Date.now().toString(36)}-token`;
const RULES = path.resolve('deploy/prometheus/flotilla-alerts.yml');
const DASHBOARD = path.resolve('deploy/grafana/flotilla-dashboard.json');

const broker = leaseSingleNode();
let scenario: HaScenario | undefined;
let secured: SecuredRuntime | undefined;
let call: RestCall;
let listener: Listener | undefined;
let prometheus: ChildProcess | undefined;
let prometheusLog = '';
let prometheusUrl: string;
let directory: string;
let queue: string;
let clusterId: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface QueryAnswer {
  status: string;
  error?: string;
  data: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
}

async function promql(query: string): Promise<QueryAnswer> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?${new URLSearchParams({ query })}`);
  return (await response.json()) as QueryAnswer;
}

async function startPrometheus(metricsUrl: string): Promise<void> {
  if (!existsSync(PROMETHEUS)) {
    throw new Error(`${PROMETHEUS} is missing: apt-get install -y prometheus (.ci/run installs it)`);
  }
  directory = mkdtempSync(path.join(tmpdir(), 'flotilla-prometheus-'));
  writeFileSync(path.join(directory, 'token'), TOKEN);
  writeFileSync(path.join(directory, 'flotilla-alerts.yml'), readFileSync(RULES));
  const target = new URL(metricsUrl);
  writeFileSync(
    path.join(directory, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s }',
      'rule_files: [flotilla-alerts.yml]',
      'scrape_configs:',
      '  - job_name: flotilla',
      '    metrics_path: /metrics',
      `    authorization: { type: Bearer, credentials_file: ${path.join(directory, 'token')} }`,
      `    static_configs: [{ targets: ['${target.host}'] }]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${path.join(directory, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(directory, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer) => {
    prometheusLog = `${prometheusLog}${chunk.toString()}`.slice(-4000);
  };
  prometheus.stdout?.on('data', keep);
  prometheus.stderr?.on('data', keep);
  await eventually(
    'Prometheus ready',
    async () => {
      if (prometheus?.exitCode !== null) throw new Error(`prometheus exited: ${prometheusLog}`);
      return (await fetch(`${prometheusUrl}/-/ready`)).ok ? true : undefined;
    },
    30_000,
    200,
  );
}

beforeAll(async () => {
  const node = broker.nodes[0] as BrokerNode;
  const started = await startHaScenario('prometheus', broker, 1_000, {
    tierB: '1s',
    tierC: '1h',
    settings: {
      'telemetry.scrape-token-sha256': createHash('sha256').update(TOKEN).digest('hex'),
      'telemetry.queue-patterns': `${broker.prefix}*`,
      'telemetry.cache': '500ms',
    },
  });
  scenario = started;
  const web = await openSecuredRuntime({ databaseUrl: started.databaseUrl, instanceId: 'prometheus-web' });
  secured = web;
  clusterId = started.clusterId;
  ({ call } = await web.signedIn());
  listener = await serveOverHttp(createMetricsHandler(() => Promise.resolve(web.runtime)));
  queue = broker.name(uniqueName('prom.orders'));
  await createAnycastQueue(node, queue);
  await sendManyMessages(node, queue, 7);
  await startPrometheus(`${listener.url}/metrics`);
}, 120_000);

afterAll(async () => {
  prometheus?.kill('SIGTERM');
  await listener?.close();
  await secured?.close();
  await scenario?.stop();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('Prometheus scraping GET /metrics', () => {
  it('answers a queue’s depth with what the queue grid shows', async () => {
    const gridDepth = await eventually(
      'the queue in the grid with its 7 messages',
      async () => {
        const page = await call<{ items: { queueName: string; messageCount: number }[] }>(
          'GET',
          `/clusters/${clusterId}/queues?q=${encodeURIComponent(queue)}`,
        );
        const row = page.json.items.find((item) => item.queueName === queue);
        return row?.messageCount === 7 ? row.messageCount : undefined;
      },
      30_000,
    );
    const answer = await eventually(
      'Prometheus to have scraped the queue’s depth',
      async () => {
        const result = await promql(`flotilla_queue_depth{cluster="prometheus", queue="${queue}"}`);
        return result.data.result.length === 1 ? result : undefined;
      },
      30_000,
      250,
    );
    expect(answer.status).toBe('success');
    expect(answer.data.result[0]?.metric).toMatchObject({
      job: 'flotilla',
      queue,
      address: queue,
      routing_type: 'ANYCAST',
    });
    expect(Number(answer.data.result[0]?.value[1])).toBe(gridDepth);

    const up = await promql('up{job="flotilla"}');
    expect(up.data.result.map((sample) => sample.value[1])).toEqual(['1']);
    const node = await promql('flotilla_node_up{cluster="prometheus"}');
    expect(node.data.result.map((sample) => sample.value[1])).toEqual(['1']);
    // Only the lease's queues are labelled (telemetry.queue-patterns), so another suite's never show here.
    const foreign = await promql(`count(flotilla_queue_depth{queue!~"${broker.prefix.replaceAll('.', '\\\\.')}.*"})`);
    expect(foreign.data.result).toEqual([]);
  });

  it('loads deploy/’s alerting rules, and accepts every dashboard expression', async () => {
    const rules = (await (await fetch(`${prometheusUrl}/api/v1/rules`)).json()) as {
      data: { groups: { rules: { name: string; health: string }[] }[] };
    };
    const loaded = rules.data.groups.flatMap((group) => group.rules);
    expect(loaded.length).toBeGreaterThan(10);
    const dashboard = readFileSync(DASHBOARD, 'utf8');
    const expressions = [...dashboard.matchAll(/"expr": "((?:[^"\\]|\\.)*)"/g)].map((match) =>
      (JSON.parse(`"${match[1] ?? ''}"`) as string).replaceAll('$cluster', 'prometheus').replaceAll('$queue', queue),
    );
    expect(expressions.length).toBeGreaterThan(20);
    for (const expression of expressions) {
      const result = await promql(expression);
      expect({ expression, status: result.status, error: result.error }).toEqual({
        expression,
        status: 'success',
        error: undefined,
      });
    }
    if (existsSync(PROMTOOL)) {
      const { stdout } = await promisify(execFile)(PROMTOOL, ['check', 'rules', RULES]);
      expect(stdout).toContain('SUCCESS');
    }
  });
});
