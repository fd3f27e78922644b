// The sample plugin's own unit test (examples/plugins/naming-policy): its server.js loaded with a fake `api` that
// records what it registers, then the /check route, the /violations cluster route, the MCP tool and the scan job
// called directly — the verdict, the exemptions, and the clear answers to a bad name or a bad pattern.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER = pathToFileURL(path.resolve(import.meta.dirname, '../../examples/plugins/naming-policy/server.js')).href;
const UI = pathToFileURL(path.resolve(import.meta.dirname, '../../examples/plugins/naming-policy/ui.js')).href;

type Handler = (input: unknown) => Promise<unknown>;
interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}
interface Queue {
  readonly name: string;
  readonly address: string;
}

/** A fake host: settings, clusters and queues given, and an in-memory `violation` table behind api.db.query. */
function fakeApi(options: { pattern?: unknown; queues?: Record<string, Queue[] | Error> } = {}) {
  const routes = new Map<string, Handler>();
  const jobs = new Map<string, Handler>();
  const tools = new Map<string, Handler>();
  const published: { topic: string; data: unknown }[] = [];
  const table = new Map<string, string>(); // `${cluster}\n${queue}` → reason
  const queues = options.queues ?? {};
  const api = {
    id: 'naming-policy',
    version: '1.0.0',
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    settings: {
      get: (key: string) =>
        Promise.resolve(key === 'naming-policy.pattern' && 'pattern' in options ? options.pattern : undefined),
    },
    clusters: { list: () => Promise.resolve(Object.keys(queues).map((id) => ({ id, name: id, environment: 'test' }))) },
    queues: {
      list: (clusterId: string) => {
        const found = queues[clusterId];
        return found instanceof Error ? Promise.reject(found) : Promise.resolve(found ?? []);
      },
    },
    db: {
      query: (sql: string, params: unknown[]) => {
        const [cluster, second, third] = params as [string | string[], unknown, unknown];
        const keys = [...table.keys()];
        if (sql.startsWith('SELECT')) {
          const rows = keys.filter((key) => key.startsWith(`${cluster as string}\n`));
          return Promise.resolve({ rows: rows.map((key) => ({ queue_name: key.split('\n')[1] })) });
        }
        if (sql.startsWith('INSERT')) {
          table.set(`${cluster as string}\n${second as string}`, third as string);
          return Promise.resolve({ rows: [] });
        }
        if (sql.startsWith('DELETE FROM violation WHERE cluster_id')) {
          for (const name of second as string[]) table.delete(`${cluster as string}\n${name}`);
          return Promise.resolve({ rows: [] });
        }
        if (sql.startsWith('DELETE FROM violation WHERE NOT')) {
          const gone = keys.filter((key) => !(cluster as string[]).includes(key.split('\n')[0] ?? ''));
          for (const key of gone) table.delete(key);
          return Promise.resolve({ rows: gone.map((key) => ({ queue_name: key.split('\n')[1] })) });
        }
        return Promise.reject(new Error(`unexpected SQL: ${sql}`));
      },
    },
    topics: {
      publish: (topic: string, data: unknown) => {
        published.push({ topic, data });
        return Promise.resolve();
      },
    },
    routes: { add: (method: string, route: string, handler: Handler) => routes.set(`${method} ${route}`, handler) },
    jobs: { add: (id: string, handler: Handler) => jobs.set(id, handler) },
    tools: { add: (name: string, handler: Handler) => tools.set(name, handler) },
  };
  return { api, routes, jobs, tools, published, table };
}

async function activated(options?: Parameters<typeof fakeApi>[0]) {
  const plugin = (await import(SERVER)) as { activate: (api: unknown) => Promise<void>; deactivate?: () => void };
  const fake = fakeApi(options);
  await plugin.activate(fake.api);
  const call = (map: Map<string, Handler>, key: string) => {
    const handler = map.get(key);
    if (!handler) throw new Error(`${key} was not registered`);
    return handler;
  };
  return {
    ...fake,
    check: async (name?: string) =>
      (await call(fake.routes, 'GET /check')({ method: 'GET', path: '/check', query: { name } })) as Answer,
    violations: async (clusterId: string) =>
      (await call(
        fake.routes,
        'GET /violations',
      )({ method: 'GET', path: '/violations', query: {}, clusterId })) as Answer,
    tool: (input: unknown) => call(fake.tools, 'naming_policy_check')(input),
    scan: () => call(fake.jobs, 'naming-policy.scan')({}),
  };
}

describe('the naming-policy sample plugin', () => {
  it('registers its two routes, its job and its tool', async () => {
    const { routes, jobs, tools } = await activated();
    expect([...routes.keys()]).toEqual(['GET /check', 'GET /violations']);
    expect([...jobs.keys()]).toEqual(['naming-policy.scan']);
    expect([...tools.keys()]).toEqual(['naming_policy_check']);
  });

  it('judges names with the default pattern when the setting has no value', async () => {
    const { check } = await activated();
    const good = await check('orders.created');
    expect(good).toMatchObject({ status: 200, body: { name: 'orders.created', conforms: true } });
    expect(good.body.pattern).toBe('^[a-z][a-z0-9]*(\\.[a-z0-9-]+)+$');
    const bad = await check('Orders');
    expect(bad).toMatchObject({ status: 200, body: { conforms: false } });
    expect(bad.body.reason).toBe('Does not match ^[a-z][a-z0-9]*(\\.[a-z0-9-]+)+$.');
    expect((await check('Orders.Created')).body.reason).toContain('it would conform in lower case');
  });

  it("exempts the broker's own queues", async () => {
    const { check } = await activated();
    for (const name of ['DLQ', 'ExpiryQueue', '$.artemis.internal.sf.cluster', 'activemq.notifications']) {
      expect((await check(name)).body, name).toMatchObject({
        conforms: true,
        reason: expect.stringContaining('Exempt') as string,
      });
    }
  });

  it('follows the setting', async () => {
    const { check } = await activated({ pattern: '^team-[a-z]+$' });
    expect((await check('team-billing')).body).toMatchObject({ conforms: true, pattern: '^team-[a-z]+$' });
    expect((await check('orders.created')).body).toMatchObject({ conforms: false });
  });

  it('answers a missing name with 400', async () => {
    const { check } = await activated();
    expect(await check(undefined)).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('name') as string },
    });
  });

  it('answers an invalid pattern with a clear error, and keeps answering', async () => {
    const { check, tool, scan, violations } = await activated({ pattern: '^[a-z' });
    const answer = await check('orders.created');
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatch(/^The setting naming-policy\.pattern is not a valid regular expression: /);
    expect((await violations('c1')).status).toBe(503);
    await expect(tool({ name: 'orders.created' })).rejects.toThrow(/naming-policy\.pattern is not a valid/);
    await expect(scan()).rejects.toThrow(/naming-policy\.pattern is not a valid/);
    expect((await check('x.y')).status).toBe(503);
  });

  it('gives the verdict through its MCP tool', async () => {
    const { tool } = await activated();
    expect(await tool({ name: 'billing.invoices' })).toMatchObject({ name: 'billing.invoices', conforms: true });
    expect(await tool({ name: 'Invoices' })).toMatchObject({ conforms: false });
    await expect(tool({})).rejects.toThrow(/name is required/);
  });

  it("lists a cluster's queues that do not conform", async () => {
    const queues = { c1: [q('orders.created'), q('Orders'), q('DLQ'), q('tmp_queue')] };
    const { violations } = await activated({ queues });
    const answer = await violations('c1');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ clusterId: 'c1', checked: 4 });
    expect((answer.body.violations as { name: string }[]).map(({ name }) => name)).toEqual(['Orders', 'tmp_queue']);
  });

  it('scans the fleet into its table, signals changes, and drops what was fixed', async () => {
    const queues: Record<string, Queue[] | Error> = { c1: [q('orders.created'), q('Orders')], c2: [q('tmp_queue')] };
    const { scan, table, published } = await activated({ queues });
    expect(await scan()).toMatchObject({ clusters: 2, queues: 3, violations: 2, added: 2, removed: 0 });
    expect([...table.keys()].sort()).toEqual(['c1\nOrders', 'c2\ntmp_queue']);
    expect(published).toEqual([{ topic: 'naming-policy.violations', data: { added: 2, removed: 0, total: 2 } }]);

    expect(await scan()).toMatchObject({ violations: 2, added: 0, removed: 0 });
    expect(published).toHaveLength(1);

    queues.c1 = [q('orders.created'), q('orders.v2')];
    queues.c2 = new Error('unreachable');
    expect(await scan()).toMatchObject({ unreachable: 1, violations: 0, added: 0, removed: 1 });
    expect([...table.keys()]).toEqual(['c2\ntmp_queue']);

    delete queues.c2;
    expect(await scan()).toMatchObject({ clusters: 1, removed: 1 });
    expect(table.size).toBe(0);
    expect(published).toHaveLength(3);
  });
});

describe("the naming-policy sample plugin's UI", () => {
  it('contributes its panel on the queue page and its checker screen under Configuration', async () => {
    const ui = (await import(UI)) as { contribute: (sdk: unknown) => { kind: string; slot: string; id: string }[] };
    const sdk = {
      version: 1,
      h: () => null,
      useState: () => [],
      useEffect: () => undefined,
      fetchJson: () => null,
      ui: {},
    };
    expect(ui.contribute(sdk)).toMatchObject([
      { kind: 'screen', slot: 'nav.configuration', id: 'naming-policy.checker', title: 'Naming policy' },
      { kind: 'panel', slot: 'queue.detail.panels', id: 'naming-policy.queue-panel', title: 'Naming policy' },
    ]);
  });
});

function q(name: string): Queue {
  return { name, address: name };
}
