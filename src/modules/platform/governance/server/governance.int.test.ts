// The governance API and its first exit on a real PostgreSQL through the REST handler: the policy in force and a
// new version (dry run honoured, audited, in force at the next read), the sample tester's two views, and broker
// events read through the policy — masked by default, credentials dropped always, values in clear only when a
// holder of message:clear asks, with VIEW_CLEAR in the audit; uncovered detections become findings with a rule.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { openWebRuntime, type WebRuntime } from '@/server/runtime/web-runtime.ts';
import { governRecords } from '@/modules/platform/governance/index.ts';
import { queryDatabase } from '@test/database.ts';

let secured: SecuredRuntime;
let runtime: WebRuntime;
let call: RestCall;
let clusterId: string;

interface PolicyAnswer {
  policy: { version: number; rules: Array<{ id: string }>; detectors: string[]; actions: Record<string, string> };
  clearRoles: string[];
}

const DEFAULT_ACTIONS = {
  credential: 'drop',
  'payment-card': 'partial',
  'bank-account': 'partial',
  'personal-contact': 'mask',
  'other-sensitive': 'mask',
};
const ALL_DETECTORS = ['card', 'iban', 'email', 'phone', 'bearer', 'jwt', 'private-key'];

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ runtime } = secured);
  ({ call } = await secured.signedIn());
  clusterId = await insertClusterRow(runtime.prisma, { name: 'governed' });
});

afterAll(async () => {
  await secured.close();
});

describe('the content policy API', () => {
  it('answers version 0 with every detector on, then puts a new version in force (dry run changing nothing)', async () => {
    const first = await call<PolicyAnswer>('GET', '/governance/policy');
    expect(first.json.policy).toMatchObject({ version: 0, rules: [], detectors: ALL_DETECTORS });
    expect(first.json.clearRoles).toContain('admin');

    const body = {
      rules: [{ id: 'tenant-secret', target: 'property', match: 'tenant-*', dataClass: 'other-sensitive' }],
      detectors: ALL_DETECTORS,
      actions: DEFAULT_ACTIONS,
    };
    const dry = await call<{ policy: { version: number }; dryRun: boolean }>(
      'PUT',
      '/governance/policy?dryRun=true',
      body,
    );
    expect(dry.json).toMatchObject({ policy: { version: 1 }, dryRun: true });
    expect((await call<PolicyAnswer>('GET', '/governance/policy')).json.policy.version).toBe(0);

    const saved = await call<{ policy: { version: number } }>('PUT', '/governance/policy', body);
    expect(saved.status).toBe(200);
    const now = await call<PolicyAnswer>('GET', '/governance/policy');
    expect(now.json.policy).toMatchObject({ version: 1, rules: [{ id: 'tenant-secret' }] });
    const audits = await runtime.prisma.auditEvent.findMany({ where: { action: 'governance.policy.save' } });
    expect(audits.map((row) => row.dryRun).sort()).toEqual([false, true]);
  });

  it('refuses a rule whose pattern is not a regular expression, and changes nothing', async () => {
    const bad = await call<{ type: string; errors: Array<{ field: string }> }>('PUT', '/governance/policy', {
      rules: [{ id: 'broken', target: 'text-pattern', match: '(unclosed', dataClass: 'other-sensitive' }],
      detectors: [],
      actions: DEFAULT_ACTIONS,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.some((error) => error.field.includes('match'))).toBe(true);
    expect((await call<PolicyAnswer>('GET', '/governance/policy')).json.policy.version).toBe(1);
  });

  it('shows a sample as a caller without and with message:clear sees it, and refuses a dry run of it', async () => {
    const sample = {
      address: 'orders',
      headers: { Authorization: 'Bearer abcdefghijkl' },
      properties: { 'tenant-key': 't-42' },
      body: JSON.stringify({ card: '4111 1111 1111 1111', contact: 'jane@example.com' }),
      contentType: 'application/json',
    };
    const tested = await call<{
      policyVersion: number;
      masked: { headers: object; properties: object; body: { value: unknown } };
      clear: { headers: object; properties: object; body: { value: unknown } };
    }>('POST', '/governance/test', sample);
    expect(tested.json.policyVersion).toBe(1);
    expect(tested.json.masked).toMatchObject({
      headers: { Authorization: '[dropped credential]' },
      properties: { 'tenant-key': '[masked sensitive]' },
      body: { value: { card: '•••• •••• •••• 1111', contact: '[masked personal contact]' } },
    });
    expect(tested.json.clear).toMatchObject({
      headers: { Authorization: '[dropped credential]' },
      properties: { 'tenant-key': 't-42' },
      body: { value: { card: '4111 1111 1111 1111', contact: 'jane@example.com' } },
    });
    expect((await call('POST', '/governance/test?dryRun=true', sample)).status).toBe(400);
  });
});

describe('broker events through the policy', () => {
  beforeAll(async () => {
    await runtime.db.query(
      `INSERT INTO broker_event (cluster_id, node_id, logical_node, broker_name, kind, address, queue, user_name,
                                 properties, broker_time, received_at)
       VALUES ($1, $2, 'n1', 'b1', 'SECURITY_AUTHENTICATION_VIOLATION', 'orders', NULL, 'jane@example.com',
               $3::jsonb, now(), now())`,
      [
        clusterId,
        randomUUID(),
        JSON.stringify({
          _AMQ_Password: { type: 'string', value: 'Bearer abcdefghijkl' },
          _AMQ_Contact: { type: 'string', value: 'call +44 20 7946 0958' },
          _AMQ_Count: { type: 'int', value: 3 },
        }),
      ],
    );
  });

  interface EventPage {
    policyVersion: number;
    items: Array<{
      user: string | null;
      properties: Record<string, { value: unknown }>;
      redactions: Array<{ action: string }>;
    }>;
  }

  it('masks by default and drops credentials, naming what it hid', async () => {
    const page = await call<EventPage>('GET', `/clusters/${clusterId}/events`);
    expect(page.status).toBe(200);
    const [event] = page.json.items;
    expect(event?.user).toBe('[masked personal contact]');
    expect(event?.properties).toEqual({
      _AMQ_Password: { type: 'string', value: '[dropped credential]' },
      _AMQ_Contact: { type: 'string', value: 'call [masked personal contact]' },
      _AMQ_Count: { type: 'int', value: 3 },
    });
    expect(event?.redactions.map((redaction) => redaction.action).sort()).toEqual(['drop', 'mask', 'mask']);
    expect(page.json.policyVersion).toBe(1);
    expect(await runtime.prisma.auditEvent.count({ where: { action: 'VIEW_CLEAR' } })).toBe(0);
  });

  it('shows the rest in clear to a holder of message:clear who asks, credentials still dropped, audited as VIEW_CLEAR', async () => {
    const page = await call<EventPage>('GET', `/clusters/${clusterId}/events?clear=true`);
    const [event] = page.json.items;
    expect(event?.user).toBe('jane@example.com');
    expect(event?.properties._AMQ_Contact?.value).toBe('call +44 20 7946 0958');
    expect(event?.properties._AMQ_Password?.value).toBe('[dropped credential]');
    const views = await runtime.prisma.auditEvent.findMany({ where: { action: 'VIEW_CLEAR' } });
    expect(views).toHaveLength(1);
    expect(views[0]?.parameters).toEqual({ classes: { 'personal-contact': 2 } });
  });

  it('keeps what no rule covered as findings, each with the rule that would cover it', async () => {
    interface Findings {
      items: Array<{
        location: string;
        detector: string;
        count: number;
        suggestedRule: { target: string; match: string } | null;
      }>;
    }
    let findings: Findings = { items: [] };
    for (let attempt = 0; attempt < 40 && findings.items.length < 2; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      findings = (await call<Findings>('GET', '/governance/findings?sort=location')).json;
    }
    expect(findings.items.map((finding) => [finding.location, finding.detector])).toEqual(
      expect.arrayContaining([
        ['property:_AMQ_Contact', 'phone'],
        ['property:_user', 'email'],
      ]),
    );
    const contact = findings.items.find((finding) => finding.location === 'property:_AMQ_Contact');
    expect(contact?.suggestedRule).toMatchObject({ target: 'property', match: '_AMQ_Contact' });
  });
});

describe('the audit log through the policy', () => {
  it('shows each row’s parameters masked, credentials dropped', async () => {
    await runtime.prisma.auditEvent.create({
      data: {
        id: randomUUID(),
        actor: 'someone',
        requestId: 'r-1',
        action: 'message.send',
        parameters: { note: 'card 4111 1111 1111 1111', auth: 'Bearer abcdefghijkl', count: 2 },
        outcome: 'SUCCEEDED',
        startedAt: new Date(),
        finishedAt: new Date(),
      },
    });
    const page = await call<{ items: Array<{ parameters: Record<string, unknown> }> }>(
      'GET',
      '/audit?action=message.send',
    );
    expect(page.json.items[0]?.parameters).toEqual({
      note: 'card •••• •••• •••• 1111',
      auth: '[dropped credential]',
      count: 2,
    });
  });

  it('stores the parameters of a new audit row masked, so the table never holds what no screen may show', async () => {
    const created = await call<{ id: string }>('POST', '/environments?dryRun=true', {
      name: 'cards-env',
      description: 'billing 4111 1111 1111 1111',
    });
    expect(created.status).toBe(200);
    const [row] = await runtime.prisma.auditEvent.findMany({
      where: { action: 'environment.create', dryRun: true },
      orderBy: { startedAt: 'desc' },
      take: 1,
    });
    expect(JSON.stringify(row?.parameters)).not.toContain('4111 1111 1111 1111');
    expect(JSON.stringify(row?.parameters)).toContain('1111');
  });
});

describe('findings', () => {
  it('are written when a process closes, not dropped with the ones still counted in memory', async () => {
    const address = `findings.on-close.${randomUUID()}`;
    const second = await openWebRuntime({ DATABASE_URL: secured.databaseUrl });
    let closed = false;
    try {
      // A card number in a field no rule names: counted as a finding, written at most every 5 s.
      await governRecords(second, [{ values: { note: 'card 4111 1111 1111 1111' }, address }], { clear: false });
      await second.close();
      closed = true;
    } finally {
      if (!closed) await second.close();
    }
    const rows = await queryDatabase<{ count: string; detector: string }>(
      secured.databaseUrl,
      'SELECT count::text, detector FROM classification_finding WHERE address = $1',
      [address],
    );
    expect(rows).toEqual([{ count: '1', detector: 'card' }]);
  });
});
