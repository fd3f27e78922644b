// GET /metrics on a real database: never anonymous (403 until a token or an address is set), the scrape token and
// the address allowlist, the queues it labels (patterns, the cap with its truncation gauge and comment, internal
// queues never), every contributed source answering, and prom-client's process metrics beside them.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { eventually } from '@test/eventually.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import { createMetricsHandler } from '@/server/http/metrics-route.ts';

const TOKEN = 'scrape-token-for-the-test-0123456789abcdef';
const clusterId = randomUUID();
const CLUSTER = 'metrics-fixture';
let secured: SecuredRuntime;
let call: RestCall;
let metrics: (request: Request) => Promise<Response>;

const scrape = (headers: Record<string, string> = {}) => metrics(new Request('http://127.0.0.1/metrics', { headers }));
const withToken = { authorization: `Bearer ${TOKEN}` };

async function setSetting(key: string, value: unknown) {
  const answer = await call('PUT', `/settings/${key}`, { value });
  expect(answer.status).toBe(200);
  await eventually(
    `${key} in effect`,
    () => (JSON.stringify(secured.runtime.settings.value(key)) === JSON.stringify(value) ? true : undefined),
    5_000,
  );
}

async function seedQueue(queueName: string, depth: number, internal = false) {
  await secured.runtime.db.query(
    `INSERT INTO queue_total (cluster_id, address, queue_name, routing_type, message_count, consumer_count,
                              delivering_count, messages_added, messages_acked, messages_expired, messages_killed,
                              in_rate, out_rate, depth_rate, nodes_present, counted_nodes, paused, internal,
                              dead_letter, scraped_at)
     VALUES ($1, $2, $2, 'ANYCAST', $3, 1, 0, $3, 0, 0, 0, 0.5, 0.25, 0, 1, '{}', false, $4, false, now())`,
    [clusterId, queueName, depth, internal],
  );
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ call } = await secured.signedIn());
  metrics = createMetricsHandler(() => Promise.resolve(secured.runtime));
  await insertClusterRow(secured.runtime.prisma, { id: clusterId, name: CLUSTER });
  await seedQueue('orders.eu', 30);
  await seedQueue('orders.us', 20);
  await seedQueue('billing', 10);
  await seedQueue('$sys.store-and-forward', 99, true);
}, 60_000);

afterAll(async () => {
  await secured.close();
});

describe('GET /metrics', () => {
  it('is never anonymous: 403 problem+json until a token or an address is configured', async () => {
    const answer = await scrape();
    expect(answer.status).toBe(403);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(await answer.json()).toMatchObject({ type: 'forbidden', status: 403, instance: '/metrics' });
    expect((await scrape(withToken)).status).toBe(403);
  });

  it('admits the scrape token whose SHA-256 is the setting, and answers 401 to a wrong or missing one', async () => {
    await setSetting('telemetry.scrape-token-sha256', createHash('sha256').update(TOKEN).digest('hex'));
    const missing = await scrape();
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    expect(await missing.json()).toMatchObject({ type: 'unauthenticated' });
    expect((await scrape({ authorization: 'Bearer not-the-token' })).status).toBe(401);
    const admitted = await scrape(withToken);
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  });

  it('admits an allowlisted address without a token', async () => {
    // The web server sets this header from the TCP peer (and trusted proxies), dropping a client's own.
    expect((await scrape({ 'x-flotilla-client-address': '10.1.2.3' })).status).toBe(401);
    await setSetting('telemetry.allowed-addresses', '10.0.0.0/8, ::1');
    expect((await scrape({ 'x-flotilla-client-address': '10.1.2.3' })).status).toBe(200);
    expect((await scrape({ 'x-flotilla-client-address': '192.168.1.1' })).status).toBe(401);
  });

  it('labels every non-internal queue with the grid’s totals, and every source answers', async () => {
    const text = await (await scrape(withToken)).text();
    expect(text).toContain(
      `flotilla_queue_depth{cluster="${CLUSTER}",address="orders.eu",queue="orders.eu",routing_type="ANYCAST"} 30`,
    );
    expect(text).toContain(
      `flotilla_queue_in_rate{cluster="${CLUSTER}",address="billing",queue="billing",routing_type="ANYCAST"} 0.5`,
    );
    expect(text).not.toContain('store-and-forward');
    expect(text).toMatch(/^flotilla_metrics_truncated 0$/m);
    expect(text).toMatch(/^flotilla_metrics_queues_exposed 3$/m);
    for (const source of ['alerting', 'events', 'consumer-health']) {
      expect(text).toContain(`flotilla_metrics_source_up{source="${source}"} 1`);
    }
    expect(text).toMatch(/^flotilla_process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^flotilla_stream_subscribers 0$/m);
    expect(text).toMatch(/^flotilla_alert_transitions_total 0$/m);
  });

  it('narrows to the patterns and cuts at the cap, deepest first, saying so', async () => {
    await setSetting('telemetry.queue-patterns', 'orders.*');
    let text = await (await scrape(withToken)).text();
    expect(text).toMatch(/^flotilla_metrics_queues_matched 2$/m);
    expect(text).not.toContain('queue="billing"');
    await setSetting('telemetry.queue-cap', 1);
    text = await (await scrape(withToken)).text();
    expect(text).toMatch(/^flotilla_metrics_truncated 1$/m);
    expect(text).toMatch(/^# flotilla: per-queue series cut at 1 of 2 matching queues/m);
    expect(text).toContain('queue="orders.eu"');
    expect(text).not.toContain('queue="orders.us"');
  });
});
