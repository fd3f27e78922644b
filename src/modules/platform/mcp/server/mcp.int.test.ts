// The MCP endpoint on a real PostgreSQL, driven by the official SDK client over HTTP as an agent would: only API
// tokens get in; the listing follows the feature toggles; discriminators and dependent arguments are checked by the
// server and named; the two gates; the spec's errors (-32602, isError, no such cluster without the id, a missing
// permission named); writes run as the token's owner and are audited with the token's name.
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHandler } from '@/server/http/mcp-route.ts';
import { connectMcp, issueToken, type Listener, serveOverHttp, userWithToken } from '@test/mcp-client.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn } from '@test/sign-in.ts';
import { CORE_SETTINGS } from '@/modules/kernel/core/index.ts';

let app: SecuredRuntime;
let listener: Listener;
let adminToken: string;
let viewerToken: string;
let admin: Client;
let viewer: Client;

type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[] };

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = result.content[0]?.text ?? '';
  return { isError: result.isError === true, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

async function refusal(client: Client, name: string, args: Record<string, unknown>): Promise<McpError> {
  try {
    await client.callTool({ name, arguments: args });
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error(`${name} was not refused`);
}

beforeAll(async () => {
  app = await openSecuredRuntime();
  listener = await serveOverHttp(createMcpHandler(() => Promise.resolve(app.runtime)));
  adminToken = await issueToken(app.rest, await signIn(app.rest, 'http://127.0.0.1'), 'agent');
  viewerToken = await userWithToken(app.runtime, app.rest, { username: 'vera', role: 'viewer', tokenName: 'vera-bot' });
  admin = await connectMcp(listener.url, adminToken);
  viewer = await connectMcp(listener.url, viewerToken);
});

afterAll(async () => {
  await admin.close();
  await viewer.close();
  await listener.close();
  await app.close();
});

describe('POST /mcp', () => {
  it('hears API tokens only: no token and a session cookie are both 401', async () => {
    await expect(connectMcp(listener.url)).rejects.toThrow(/401/);
    const session = await signIn(app.rest, 'http://127.0.0.1');
    const response = await fetch(`${listener.url}/mcp`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('holds the REST edge’s body limit', async () => {
    const limit = app.runtime.settings.integer(CORE_SETTINGS.maxBodyBytes);
    const response = await fetch(`${listener.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(limit) } }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ type: 'payload-too-large', instance: '/mcp' });
  });

  it('is stateless: no session id, and GET answers 405', async () => {
    const response = await fetch(`${listener.url}/mcp`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(response.status).toBe(405);
    const post = await fetch(`${listener.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${adminToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
      }),
    });
    expect(post.status).toBe(200);
    expect(post.headers.get('mcp-session-id')).toBeNull();
  });

  it('lists the tools, resources, templates and runbook prompts', async () => {
    const tools = (await admin.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual([
      'cluster_health',
      'list_resources',
      'diagnose_queue',
      'metric_series',
      'browse_messages',
      'message_body',
      'query_messages',
      'trace_request_reply',
      'config_diff',
      'route_message',
      'activity_log',
      'queue_action',
      'send_message',
      'alert_rule',
      'flotilla_setting',
      'flotilla_help',
    ]);
    expect((await admin.listResources()).resources.map((resource) => resource.uri)).toEqual([
      'flotilla://clusters',
      'flotilla://permissions',
    ]);
    expect((await admin.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'cluster://{id}/topology',
      'cluster://{id}/capabilities',
    ]);
    expect((await admin.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual([
      'triage_cluster',
      'investigate_queue',
      'before_you_purge',
      'tune_scrape_load',
    ]);
    const runbook = await admin.getPrompt({
      name: 'before_you_purge',
      arguments: { clusterId: 'c1', queue: 'orders' },
    });
    expect(JSON.stringify(runbook.messages)).toContain('queue_action action=purge dryRun=false confirm=orders');
  });

  it('reads the caller’s own permissions and the clusters it can see as resources', async () => {
    const permissions = await viewer.readResource({ uri: 'flotilla://permissions' });
    const body = JSON.parse((permissions.contents[0] as { text: string }).text) as {
      actor: string;
      globalPermissions: string[];
    };
    expect(body.actor).toBe('vera [token: vera-bot]');
    expect(body.globalPermissions).toContain('queue:read');
    expect(body.globalPermissions).not.toContain('message:write');
    const clusters = await admin.readResource({ uri: 'flotilla://clusters' });
    expect(JSON.parse((clusters.contents[0] as { text: string }).text)).toEqual([]);
  });

  it('answers an unknown cluster like an ungranted one, without echoing its id', async () => {
    const id = randomUUID();
    const health = await call(admin, 'cluster_health', { clusterId: id });
    expect(health.isError).toBe(true);
    expect(health.text).toContain('There is no such cluster, or this API key has no grant on it');
    expect(health.text).not.toContain(id);
    const purge = await call(admin, 'queue_action', { clusterId: id, queue: 'q', action: 'purge' });
    expect(purge).toMatchObject({ isError: true });
    expect(purge.text).not.toContain(id);
    await expect(admin.readResource({ uri: `cluster://${id}/topology` })).rejects.toThrow(/no such cluster/);
  });

  it('checks discriminators and dependent arguments on the server and names them', async () => {
    const kind = await refusal(admin, 'list_resources', { clusterId: randomUUID(), kind: 'widgets' });
    expect(kind.code).toBe(ErrorCode.InvalidParams);
    expect(kind.message).toContain(
      'kind must be one of: nodes, queues, addresses, consumers, producers, sessions, connections',
    );
    const source = await refusal(admin, 'activity_log', { source: 'events' });
    expect(source.message).toContain('source=events needs clusterId');
    const move = await refusal(admin, 'queue_action', { clusterId: randomUUID(), queue: 'q', action: 'move' });
    expect(move.message).toContain('action=move needs targetQueue');
    const op = await refusal(admin, 'alert_rule', { op: 'drop' });
    expect(op.message).toContain('op must be one of: list, create, update, delete');
    const extra = await refusal(admin, 'cluster_health', { clusterID: 'x' });
    expect(extra.message).toMatch(/Invalid arguments for cluster_health: .*clusterID/);
    const body = await refusal(admin, 'message_body', { clusterId: randomUUID(), queue: 'q' });
    expect(body.message).toContain('message_body needs messageId or position');
    const unknown = await refusal(admin, 'config_apply', {});
    expect(unknown.message).toContain('There is no tool "config_apply" here');
  });

  it('refuses a real destructive run without the exact confirm, and override never stands in for it', async () => {
    for (const args of [{}, { confirm: 'Q' }, { override: true }]) {
      const error = await refusal(admin, 'queue_action', {
        clusterId: randomUUID(),
        queue: 'q',
        action: 'purge',
        dryRun: false,
        ...args,
      });
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toContain('confirm equal to the queue\'s exact name ("q")');
    }
  });

  it('names a missing global permission', async () => {
    const audit = await call(viewer, 'activity_log', { source: 'audit' });
    expect(audit).toMatchObject({ isError: true });
    expect(audit.text).toContain('Permission missing: audit:read');
    const setting = await call(viewer, 'flotilla_setting', { op: 'set', key: 'safety.bulk-cap', value: 5 });
    expect(setting.text).toContain('Permission missing: settings:write');
  });

  it('audits its denials like REST’s: one DENIED row per token, procedure and reason, counting repeats', async () => {
    const actor = 'vera [token: vera-bot]';
    const counted = async () =>
      (await app.runtime.prisma.auditEvent.findMany({ where: { actor, outcome: 'DENIED', action: 'audit.list' } }))
        .map((row) => row.count)
        .reduce((sum, count) => sum + count, 0);
    const before = await counted();
    for (let index = 0; index < 3; index++) {
      expect(await call(viewer, 'activity_log', { source: 'audit' })).toMatchObject({ isError: true });
    }
    expect(await counted()).toBe(before + 3);
    const rows = await app.runtime.prisma.auditEvent.findMany({ where: { actor, outcome: 'DENIED' } });
    expect(rows.length).toBeLessThanOrEqual(4); // audit.list and settings.update, in at most two windows
    const reasons = new Set(rows.map((row) => row.error));
    expect(reasons).toEqual(new Set(['forbidden (audit:read)', 'forbidden (settings:write)']));
  });

  it('previews a setting change by default, applies it on dryRun=false, audited with the token’s name', async () => {
    const preview = await call(admin, 'flotilla_setting', { op: 'set', key: 'safety.bulk-cap', value: 500 });
    expect(preview.json()).toMatchObject({ key: 'safety.bulk-cap', previousValue: 1000, value: 500, dryRun: true });
    expect((await call(admin, 'flotilla_setting', { op: 'get', key: 'safety.bulk-cap' })).json()).toMatchObject({
      value: 1000,
    });
    const applied = await call(admin, 'flotilla_setting', {
      op: 'set',
      key: 'safety.bulk-cap',
      value: 500,
      dryRun: false,
    });
    expect(applied.json()).toMatchObject({ value: 500, dryRun: false });
    const log = (await call(admin, 'activity_log', { source: 'audit', q: 'safety.bulk-cap' })).json() as {
      items: { actor: string; action: string; dryRun: boolean }[];
    };
    expect(log.items.filter((row) => row.action === 'setting.update')).toEqual([
      expect.objectContaining({ actor: 'admin [token: agent]', dryRun: false }),
      expect.objectContaining({ actor: 'admin [token: agent]', dryRun: true }),
    ]);
    const bad = await refusal(admin, 'flotilla_setting', { op: 'set', key: 'safety.bulk-cap', value: 'lots' });
    expect(bad.code).toBe(ErrorCode.InvalidParams);
    expect(bad.message).toContain('safety.bulk-cap');
    const unknown = await call(admin, 'flotilla_setting', { op: 'get', key: 'no.such-setting' });
    expect(unknown).toMatchObject({ isError: true });
  });

  it('deletes an alert rule only with its name as confirm', async () => {
    const rule = {
      name: 'mcp depth',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', op: '>', threshold: 5 } },
      severity: 'warning',
    };
    expect((await call(admin, 'alert_rule', { op: 'create', rule })).json()).toMatchObject({ dryRun: true });
    expect((await call(admin, 'alert_rule', { op: 'list' })).json()).toMatchObject({ total: 0 });
    const created = (await call(admin, 'alert_rule', { op: 'create', rule, dryRun: false })).json() as {
      rule: { id: string };
    };
    const id = created.rule.id;
    const wrong = await refusal(admin, 'alert_rule', { op: 'delete', id, dryRun: false, confirm: id });
    expect(wrong.message).toContain('confirm equal to the alert rule\'s exact name ("mcp depth")');
    expect((await call(admin, 'alert_rule', { op: 'delete', id })).json()).toMatchObject({
      deleted: false,
      dryRun: true,
    });
    const deleted = await call(admin, 'alert_rule', { op: 'delete', id, dryRun: false, confirm: 'mcp depth' });
    expect(deleted.json()).toMatchObject({ deleted: true, dryRun: false, name: 'mcp depth' });
  });

  it('compares declared broker configuration with the live nodes, and says when nothing is declared yet', async () => {
    const clusterId = await insertClusterRow(app.runtime.prisma, { name: 'mcp-config' });
    try {
      const none = await call(admin, 'config_diff', { clusterId });
      expect(none.isError).toBe(true);
      expect(none.text).toContain('no declared configuration yet');
      // An unknown cluster answers like one the caller cannot see.
      const unknown = await call(admin, 'config_diff', { clusterId: '00000000-0000-4000-8000-000000000000' });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/cluster/i);
    } finally {
      await app.runtime.prisma.cluster.delete({ where: { id: clusterId } });
    }
  });

  it('traces request-reply by correlation id or address, its mode and dependent arguments checked on the server', async () => {
    const clusterId = await insertClusterRow(app.runtime.prisma, { name: 'mcp-rr' });
    try {
      const unknown = await call(admin, 'trace_request_reply', {
        clusterId,
        mode: 'correlation',
        correlationId: 'no-such-correlation',
      });
      expect(unknown.isError).toBe(false);
      expect(unknown.json()).toMatchObject({ mode: 'correlation', items: [] });
      const mode = await refusal(admin, 'trace_request_reply', { clusterId, mode: 'bogus', address: 'orders' });
      expect(mode.code).toBe(ErrorCode.InvalidParams);
      expect(mode.message).toContain('mode must be one of: address, correlation, expect, unexpect');
      const address = await refusal(admin, 'trace_request_reply', { clusterId, mode: 'address' });
      expect(address.code).toBe(ErrorCode.InvalidParams);
      expect(address.message).toContain('mode=address needs address');
      const id = await refusal(admin, 'trace_request_reply', { clusterId, mode: 'correlation', address: 'orders' });
      expect(id.message).toContain('mode=correlation needs correlationId');
      const window = await refusal(admin, 'trace_request_reply', {
        clusterId,
        mode: 'address',
        address: 'a',
        window: '2d',
      });
      expect(window.message).toContain('window must be one of: 15m, 1h, 6h, 24h, 7d');

      // One timed-out request as the correlator stores it (its key is a hash; the row's own fields are what is read),
      // with a card number in a header the store would have masked: the MCP exit masks it all the same.
      const requestAt = new Date(Date.now() - 60_000);
      await app.runtime.prisma.rrEvent.create({
        data: {
          clusterId,
          keyHash: 'mcp-rr-fixture',
          address: 'rr.orders',
          replyAddress: 'rr.orders.reply',
          pattern: 'shared-reply',
          state: 'TIMED_OUT',
          feed: 'sample',
          nodeId: randomUUID(),
          correlationId: 'order-42',
          requestAt,
          clock: 'observed',
          deadlineAt: new Date(requestAt.getTime() + 5_000),
          deadlineSource: 'expectation',
          stateAt: new Date(requestAt.getTime() + 5_000),
          headers: { note: 'card 4111 1111 1111 1111', attempt: 1 },
          storedAt: new Date(),
        },
      });
      const flow = await call(admin, 'trace_request_reply', { clusterId, mode: 'address', address: 'rr.orders' });
      expect(flow.isError).toBe(false);
      const answer = flow.json() as {
        summary: Record<string, unknown>;
        series: { points: { requests: number }[] };
        unfinished: { total: number; items: Record<string, unknown>[] };
      };
      expect(answer.summary).toMatchObject({
        address: 'rr.orders',
        requests: 1,
        states: { TIMED_OUT: 1 },
        feed: 'sample',
      });
      expect(answer.summary.feedNotice).toContain('Sampled');
      expect(answer.series.points).toEqual([expect.objectContaining({ requests: 1, replies: 0 })]);
      expect(answer.unfinished.total).toBe(1);
      expect(answer.unfinished.items[0]).toMatchObject({
        state: 'TIMED_OUT',
        correlationId: 'order-42',
        clock: 'observed',
      });
      expect(flow.text).not.toContain('4111 1111 1111 1111');
      expect(flow.text).toContain('•••• •••• •••• 1111');
      const stranger = await call(admin, 'trace_request_reply', {
        clusterId: randomUUID(),
        mode: 'address',
        address: 'a',
      });
      expect(stranger.text).toContain('There is no such cluster, or this API key has no grant on it');

      // Expectations: a preview by default, then declared, changed and removed, each a version.
      const expect1 = { clusterId, mode: 'expect', address: 'rr.quotes', expectedLatencyMs: 200, deadlineMs: 1_000 };
      const preview = await call(admin, 'trace_request_reply', expect1);
      expect(preview.json()).toMatchObject({ mode: 'expect', version: 1, dryRun: true });
      expect(await app.runtime.prisma.rrExpectation.count({ where: { clusterId } })).toBe(0);
      const declared = await call(admin, 'trace_request_reply', { ...expect1, dryRun: false });
      expect(declared.json()).toMatchObject({ version: 1, dryRun: false });
      const changed = await call(admin, 'trace_request_reply', { ...expect1, deadlineMs: 2_000, dryRun: false });
      expect(changed.json()).toMatchObject({ version: 2 });
      expect(await app.runtime.prisma.rrExpectation.findMany({ where: { clusterId } })).toMatchObject([
        { address: 'rr.quotes', deadlineMs: 2_000, version: 2 },
      ]);
      const lacking = await refusal(admin, 'trace_request_reply', { ...expect1, deadlineMs: undefined });
      expect(lacking.message).toContain('mode=expect needs deadlineMs');
      const tooShort = await refusal(admin, 'trace_request_reply', { ...expect1, deadlineMs: 100, dryRun: false });
      expect(tooShort.message).toContain('deadlineMs: must be at least the expected latency');
      const removed = await call(admin, 'trace_request_reply', {
        clusterId,
        mode: 'unexpect',
        address: 'rr.quotes',
        dryRun: false,
      });
      expect(removed.json()).toMatchObject({ mode: 'unexpect', version: 3, dryRun: false });
      expect(await app.runtime.prisma.rrExpectation.count({ where: { clusterId } })).toBe(0);
    } finally {
      await app.runtime.prisma.rrExpectationRevision.deleteMany({ where: { clusterId } });
      await app.runtime.prisma.rrEvent.deleteMany({ where: { clusterId } });
      await app.runtime.prisma.cluster.delete({ where: { id: clusterId } });
    }
  });

  it('answers flotilla_help', async () => {
    const help = (await call(admin, 'flotilla_help', {})).json() as { guide: string[]; featuresOff: unknown };
    expect(help.guide.join(' ')).toContain('confirm equal to the subject’s exact name');
    expect(help.featuresOff).toBe('none');
  });
});

describe('feature toggles', () => {
  it('leave out the tools, values and prompts of disabled features, and a runbook names the property', async () => {
    const partial = await openSecuredRuntime({
      environment: {
        FLOTILLA_FEATURES_MESSAGES_ENABLED: 'false',
        FLOTILLA_FEATURES_ALERTING_ENABLED: 'false',
        FLOTILLA_FEATURES_RESOURCES_ENABLED: 'false',
        FLOTILLA_FEATURES_RR_ENABLED: 'false',
      },
    });
    const served = await serveOverHttp(createMcpHandler(() => Promise.resolve(partial.runtime)));
    const client = await connectMcp(
      served.url,
      await issueToken(partial.rest, await signIn(partial.rest, 'http://127.0.0.1'), 'agent'),
    );
    try {
      const tools = (await client.listTools()).tools;
      const names = tools.map((tool) => tool.name);
      for (const gone of ['browse_messages', 'message_body', 'send_message', 'alert_rule', 'trace_request_reply'])
        expect(names).not.toContain(gone);
      expect(names).toContain('queue_action');
      expect(tools.find((tool) => tool.name === 'list_resources')?.description).toContain('nodes|queues (kind)');
      expect(tools.find((tool) => tool.name === 'activity_log')?.description).not.toContain('alerts');
      const source = await refusal(client, 'activity_log', { source: 'alerts' });
      expect(source.message).toContain('alerts belongs to a feature that is turned off');
      const gone = await refusal(client, 'send_message', { clusterId: 'x', address: 'a', body: 'b' });
      expect(gone.message).toContain('There is no tool "send_message" here');
      const runbook = await client.getPrompt({ name: 'investigate_queue', arguments: { clusterId: 'c', queue: 'q' } });
      expect(JSON.stringify(runbook.messages)).toContain('flotilla.features.messages.enabled=true');
      const help = (await call(client, 'flotilla_help', {})).json() as { featuresOff: string[] };
      expect(help.featuresOff).toContain('alerting (set flotilla.features.alerting.enabled=true and restart)');
    } finally {
      await client.close();
      await served.close();
      await partial.close();
    }
  });

  it('remove the whole endpoint when mcp itself is off (404 feature-disabled)', async () => {
    const off = await openSecuredRuntime({ environment: { FLOTILLA_FEATURES_MCP_ENABLED: 'false' } });
    try {
      const response = await createMcpHandler(() => Promise.resolve(off.runtime))(
        new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{}' }),
      );
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        type: 'feature-disabled',
        property: 'flotilla.features.mcp.enabled',
      });
    } finally {
      await off.close();
    }
  });
});
