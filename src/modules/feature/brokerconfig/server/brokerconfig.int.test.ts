// Broker configuration on a real PostgreSQL, without a broker: revisions over REST (a dry run stores nothing but is
// audited, the base revision refusing a stale save with 409, History newest first with what changed, one revision,
// an unknown one), the refusals of a bad document (a 400 naming the field, nothing stored), who may read and save,
// bridge credentials sealed in the vault and never told back, and a plan or apply of a cluster without a revision.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { userWithToken } from '@test/mcp-client.ts';
import { callRest, type RestAnswer, type RestCall } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn } from '@test/sign-in.ts';

const UNKNOWN_CLUSTER = '00000000-0000-4000-8000-0000000000cf';
const SECRET_VALUE = 'bridge-Pa55word-never-shown';
const NO_PLAN = '0'.repeat(64);

let secured: SecuredRuntime;
let admin: RestCall;
let viewer: RestCall;
let stranger: RestCall;
const clusters = { revisions: '', refusals: '', secrets: '', empty: '', scoped: '' };

const bearer =
  (token: string): RestCall =>
  (method, path, body) =>
    callRest(secured.rest, { authorization: `Bearer ${token}` }, method, path, body);

interface Problem {
  type: string;
  status: number;
  detail?: string;
  errors?: Array<{ field: string; message: string }>;
}

/** The problem+json answer, without its request id (which differs on every call). */
function expectProblem(answer: RestAnswer<unknown>, status: number): Problem {
  expect(answer.status, JSON.stringify(answer.json)).toBe(status);
  expect(answer.headers.get('content-type')).toContain('application/problem+json');
  const { requestId, ...problem } = answer.json as Problem & { requestId?: string };
  expect(requestId).toEqual(expect.any(String));
  return problem;
}

interface Change {
  section: string;
  key: string;
  change: 'added' | 'removed' | 'changed';
  fields: string[];
}
interface RevisionItem {
  number: number;
  comment: string;
  source: string;
  author: string;
  createdAt: string;
  counts: Record<string, number>;
  changes: Change[];
}

const FIRST = {
  addressSettings: [{ match: 'orders.#', settings: { maxDeliveryAttempts: 5, deadLetterAddress: 'orders.dla' } }],
  queues: [{ name: 'orders.in', address: 'orders.in' }],
  diverts: [{ name: 'orders.copy', address: 'orders.in', forwardingAddress: 'orders.audit' }],
};
const SECOND = {
  addressSettings: [
    { match: 'orders.#', settings: { maxDeliveryAttempts: 3, deadLetterAddress: 'orders.dla', redeliveryDelay: 500 } },
  ],
  queues: [
    { name: 'orders.in', address: 'orders.in', maxConsumers: 4 },
    { name: 'orders.audit', address: 'orders.audit' },
  ],
};

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ call: admin } = await secured.signedIn());
  const { prisma } = secured.runtime;
  clusters.revisions = await insertClusterRow(prisma, { name: 'cfg-revisions' });
  clusters.refusals = await insertClusterRow(prisma, { name: 'cfg-refusals' });
  clusters.secrets = await insertClusterRow(prisma, { name: 'cfg-secrets' });
  clusters.empty = await insertClusterRow(prisma, { name: 'cfg-empty' });
  clusters.scoped = await insertClusterRow(prisma, { name: 'cfg-scoped' });
  // The refusals cluster's node reported its own management and notification addresses at its last poll.
  await prisma.clusterNode.create({
    data: {
      id: randomUUID(),
      clusterId: clusters.refusals,
      managementUrl: 'http://127.0.0.1:1/console/jolokia',
      brokerName: 'cfg-node',
      managementAddress: 'corp.mgmt',
      notificationAddress: 'corp.notify',
    },
  });
  viewer = bearer(
    await userWithToken(secured.runtime, secured.rest, { username: 'cfg-viewer', role: 'viewer', tokenName: 'v' }),
  );
  // An operator whose one grant reaches the scoped cluster only.
  const password = 'a long password for the scoped operator';
  const user = await admin<{ user: { id: string } }>('POST', '/users', {
    username: 'cfg-stranger',
    password,
    mustChangePassword: false,
  });
  expect(user.status, JSON.stringify(user.json)).toBe(200);
  const operator = await prisma.role.findFirstOrThrow({ where: { name: 'operator' } });
  const grant = await admin('POST', '/grants', {
    userId: user.json.user.id,
    roleId: operator.id,
    scope: { kind: 'CLUSTER', id: clusters.scoped },
  });
  expect(grant.status, JSON.stringify(grant.json)).toBe(200);
  const auth = await signIn(secured.rest, 'http://127.0.0.1', { username: 'cfg-stranger', password });
  stranger = (method, path, body) => callRest(secured.rest, auth, method, path, body);
}, 60_000);

afterAll(async () => {
  await secured.close();
});

const auditRows = (prefix: string, clusterId?: string) =>
  secured.runtime.prisma.auditEvent.findMany({
    where: { action: { startsWith: prefix }, ...(clusterId ? { clusterId } : {}) },
    orderBy: { startedAt: 'asc' },
    select: { action: true, dryRun: true, target: true, clusterId: true, outcome: true, parameters: true },
  });

describe('revisions', () => {
  const base = () => `/clusters/${clusters.revisions}/config/revisions`;
  const stored = () => secured.runtime.prisma.configRevision.count({ where: { clusterId: clusters.revisions } });

  it('stores nothing on a dry run but audits it; numbers saves from the base; refuses a stale base with 409', async () => {
    const dry = await admin('POST', base(), { document: FIRST, comment: 'first try', baseRevision: 0, dryRun: true });
    expect(dry.status, JSON.stringify(dry.json)).toBe(200);
    expect(dry.json).toMatchObject({ number: 1, dryRun: true });
    expect(await stored()).toBe(0);
    expect((await admin<{ items: RevisionItem[] }>('GET', base())).json.items).toEqual([]);
    expect(await auditRows('config.revision.', clusters.revisions)).toEqual([
      {
        action: 'config.revision.save',
        dryRun: true,
        target: 'revision 1',
        clusterId: clusters.revisions,
        outcome: 'SUCCEEDED',
        parameters: {
          number: 1,
          source: 'edit',
          comment: 'first try',
          changes: 3,
          counts: { addressSettings: 1, securitySettings: 0, diverts: 1, bridges: 0, queues: 1 },
        },
      },
    ]);

    const first = await admin('POST', base(), { document: FIRST, comment: 'orders', baseRevision: 0 });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ number: 1, dryRun: false });
    expect(await stored()).toBe(1);

    // Someone who also started from nothing comes second.
    const stale = expectProblem(
      await admin('POST', base(), { document: SECOND, comment: 'late', baseRevision: 0 }),
      409,
    );
    expect(stale.type).toBe('revision-conflict');
    expect(await stored()).toBe(1);

    const second = await admin<{ number: number; changes: Change[] }>('POST', base(), {
      document: SECOND,
      comment: 'tighter retries, an audit queue, no divert',
      baseRevision: 1,
    });
    expect(second.status, JSON.stringify(second.json)).toBe(200);
    expect(second.json.number).toBe(2);
    expect(await stored()).toBe(2);
    // A save on the old base again is the same conflict.
    expectProblem(await admin('POST', base(), { document: FIRST, comment: 'back', baseRevision: 1 }), 409);
    expect(await stored()).toBe(2);
    expect((await auditRows('config.revision.', clusters.revisions)).map((row) => [row.target, row.dryRun])).toEqual([
      ['revision 1', true],
      ['revision 1', false],
      ['revision 2', false],
    ]);
  });

  it('lists History newest first with what changed, reads one revision, and 404s an unknown one', async () => {
    const history = await admin<{ items: RevisionItem[] }>('GET', base());
    expect(history.status, JSON.stringify(history.json)).toBe(200);
    expect(history.json.items.map((item) => [item.number, item.comment, item.author, item.source])).toEqual([
      [2, 'tighter retries, an audit queue, no divert', 'admin', 'edit'],
      [1, 'orders', 'admin', 'edit'],
    ]);
    const [newest, oldest] = history.json.items;
    expect(newest?.counts).toEqual({ addressSettings: 1, securitySettings: 0, diverts: 0, bridges: 0, queues: 2 });
    expect(newest?.changes).toEqual([
      {
        section: 'addressSettings',
        key: 'orders.#',
        change: 'changed',
        fields: ['settings.maxDeliveryAttempts', 'settings.redeliveryDelay'],
      },
      { section: 'diverts', key: 'orders.copy', change: 'removed', fields: [] },
      { section: 'queues', key: 'orders.in', change: 'changed', fields: ['maxConsumers'] },
      { section: 'queues', key: 'orders.audit', change: 'added', fields: [] },
    ]);
    expect(oldest?.changes.map((change) => [change.section, change.key, change.change])).toEqual([
      ['addressSettings', 'orders.#', 'added'],
      ['diverts', 'orders.copy', 'added'],
      ['queues', 'orders.in', 'added'],
    ]);
    expect(history.json.items[0]).not.toHaveProperty('document');

    const one = await admin<{
      number: number;
      document: { queues: Array<Record<string, unknown>> };
      changes: Change[];
    }>('GET', `${base()}/2`);
    expect(one.status, JSON.stringify(one.json)).toBe(200);
    expect(one.json.number).toBe(2);
    expect(one.json.changes).toEqual(newest?.changes);
    // Stored with the defaults filled in.
    expect(one.json.document.queues[1]).toMatchObject({
      name: 'orders.audit',
      routingType: 'ANYCAST',
      durable: true,
      maxConsumers: -1,
    });

    expect(expectProblem(await admin('GET', `${base()}/3`), 404).type).toBe('not-found');
    expectProblem(await admin('GET', `/clusters/${clusters.empty}/config/revisions/1`), 404);
    expectProblem(await admin('GET', `${base()}/zero`), 400);
  });
});

describe('refusals of a bad document', () => {
  const base = () => `/clusters/${clusters.refusals}/config/revisions`;
  const snapshot = async () => ({
    revisions: await secured.runtime.prisma.configRevision.count({ where: { clusterId: clusters.refusals } }),
    audit: (await auditRows('config.', clusters.refusals)).length,
  });
  const save = (document: unknown, extra: Record<string, unknown> = {}) =>
    admin('POST', base(), { document, comment: 'refused', baseRevision: 0, ...extra });
  const fieldsOf = (problem: Problem) => problem.errors?.map((error) => error.field);

  it('answers 400 naming the field, and stores nothing', async () => {
    const before = await snapshot();
    const typo = expectProblem(
      await save({ addressSettings: [{ match: 'orders.#', settings: { maxDeliveryAttempt: 5 } }] }),
      400,
    );
    expect(typo.type).toBe('validation-failed');
    expect(fieldsOf(typo)).toEqual(['document.addressSettings.0.settings']);
    expect(typo.errors?.[0]?.message).toContain('maxDeliveryAttempt');

    const hash = expectProblem(await save({ addressSettings: [{ match: 'orders.#.eu', settings: {} }] }), 400);
    expect(fieldsOf(hash)).toEqual(['document.addressSettings.0.match']);

    const twice = expectProblem(
      await save({
        queues: [
          { name: 'orders.in', address: 'orders.in' },
          { name: 'orders.in', address: 'orders.other' },
        ],
      }),
      400,
    );
    expect(fieldsOf(twice)).toEqual(['document.queues.1']);
    expect(twice.errors?.[0]?.message).toContain('declared twice');

    const notBoolean = expectProblem(await save({}, { dryRun: 'yes' }), 400);
    expect(fieldsOf(notBoolean)).toEqual(['dryRun']);
    const noComment = expectProblem(await save({}, { comment: '  ' }), 400);
    expect(fieldsOf(noComment)).toEqual(['comment']);
    expect(await snapshot()).toEqual(before);
  });

  // Named as the request names them, like the schema's refusals (the console strips the leading `document.`).
  it('refuses the broker’s own addresses (the node’s and the defaults) and Flotilla’s own names', async () => {
    const before = await snapshot();
    const refused = async (document: unknown) => {
      const problem = expectProblem(await save(document), 400);
      expect(problem.type).toBe('validation-failed');
      return problem;
    };
    const queueOnManagement = await refused({ queues: [{ name: 'corp.mgmt', address: 'corp.mgmt' }] });
    expect(fieldsOf(queueOnManagement)).toEqual(['document.queues.0.name']);
    const queueAddress = await refused({ queues: [{ name: 'watch', address: 'corp.notify' }] });
    expect(fieldsOf(queueAddress)).toEqual(['document.queues.0.address']);
    expect(queueAddress.errors?.[0]?.message).toContain('corp.notify');
    const dla = await refused({
      addressSettings: [{ match: 'orders.#', settings: { deadLetterAddress: 'corp.mgmt' } }],
    });
    expect(fieldsOf(dla)).toEqual(['document.addressSettings.0.settings.deadLetterAddress']);
    const defaultAddress = await refused({
      addressSettings: [{ match: 'orders.#', settings: { expiryAddress: 'activemq.management' } }],
    });
    expect(fieldsOf(defaultAddress)).toEqual(['document.addressSettings.0.settings.expiryAddress']);
    const divert = await refused({
      diverts: [{ name: 'spy', address: 'orders.in', forwardingAddress: 'corp.notify' }],
    });
    expect(fieldsOf(divert)).toEqual(['document.diverts.0.forwardingAddress']);
    const owned = await refused({ queues: [{ name: 'flotilla.capture.x', address: 'orders.in' }] });
    expect(fieldsOf(owned)).toEqual(['document.queues.0.name']);
    expect(owned.errors?.[0]?.message).toContain('flotilla.');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a flag given twice or not as true/false in the query', async () => {
    const secret = `/clusters/${clusters.refusals}/config/secrets/bridge-user`;
    expect(fieldsOf(expectProblem(await admin('DELETE', `${secret}?dryRun=true&dryRun=false`), 400))).toEqual([
      'dryRun',
    ]);
    expect(fieldsOf(expectProblem(await admin('DELETE', `${secret}?dryRun=yes`), 400))).toEqual(['dryRun']);
    expect(
      fieldsOf(expectProblem(await admin('PUT', `${secret}?dryRun=true&dryRun=true`, { value: 'x' }), 400)),
    ).toEqual(['dryRun']);
    expect(await secured.runtime.prisma.configSecret.count({ where: { clusterId: clusters.refusals } })).toBe(0);
  });
});

describe('who may read and save', () => {
  const path = (clusterId: string, rest = '') => `/clusters/${clusterId}/config${rest}`;

  it('lets a viewer read but not save, adopt, apply or store a credential', async () => {
    for (const rest of ['', '/revisions', '/revisions/1', '/schema', '/drift', '/runs', '/secrets']) {
      const answer = await viewer('GET', path(clusters.revisions, rest));
      expect(answer.status, `${rest} ${JSON.stringify(answer.json)}`).toBe(200);
    }
    const save = expectProblem(
      await viewer('POST', path(clusters.revisions, '/revisions'), {
        document: {},
        comment: 'viewer',
        baseRevision: 2,
      }),
      403,
    );
    expect(save.type).toBe('forbidden');
    expectProblem(await viewer('POST', path(clusters.revisions, '/adopt'), { baseRevision: 2 }), 403);
    expectProblem(await viewer('POST', path(clusters.revisions, '/apply'), { planHash: NO_PLAN }), 403);
    expectProblem(await viewer('PUT', path(clusters.revisions, '/secrets/x'), { value: 'v' }), 403);
    expect(await secured.runtime.prisma.configRevision.count({ where: { clusterId: clusters.revisions } })).toBe(2);
  });

  it('answers a user without a grant on the cluster as for an unknown cluster', async () => {
    for (const rest of ['', '/revisions', '/revisions/1', '/plan', '/secrets']) {
      const unknown = expectProblem(await stranger('GET', path(UNKNOWN_CLUSTER, rest)), 404);
      const notMine = expectProblem(await stranger('GET', path(clusters.revisions, rest)), 404);
      expect(notMine, rest).toEqual(unknown);
    }
    const body = { document: {}, comment: 'stranger', baseRevision: 2 };
    const unknownSave = expectProblem(await stranger('POST', path(UNKNOWN_CLUSTER, '/revisions'), body), 404);
    const notMineSave = expectProblem(await stranger('POST', path(clusters.revisions, '/revisions'), body), 404);
    expect(notMineSave).toEqual(unknownSave);
    const unknownPut = expectProblem(await stranger('PUT', path(UNKNOWN_CLUSTER, '/secrets/x'), { value: 'v' }), 404);
    const notMinePut = expectProblem(
      await stranger('PUT', path(clusters.revisions, '/secrets/x'), { value: 'v' }),
      404,
    );
    expect(notMinePut).toEqual(unknownPut);
    expect(await secured.runtime.prisma.configRevision.count({ where: { clusterId: clusters.revisions } })).toBe(2);
    // Where the grant reaches, the same operator saves.
    const own = await stranger('POST', path(clusters.scoped, '/revisions'), { ...body, baseRevision: 0 });
    expect(own.status, JSON.stringify(own.json)).toBe(200);
  });
});

describe('bridge credentials', () => {
  const base = () => `/clusters/${clusters.secrets}/config/secrets`;

  it('stores a credential sealed, lists names only, never tells the value, and removes it', async () => {
    const dry = await admin('PUT', `${base()}/bridge-user`, { value: SECRET_VALUE, dryRun: true });
    expect(dry.status, JSON.stringify(dry.json)).toBe(200);
    expect(dry.json).toEqual({ name: 'bridge-user', dryRun: true });
    expect(await secured.runtime.prisma.configSecret.count({ where: { clusterId: clusters.secrets } })).toBe(0);

    const put = await admin('PUT', `${base()}/bridge-user`, { value: SECRET_VALUE });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    expect(put.json).toEqual({ name: 'bridge-user', dryRun: false });
    const row = await secured.runtime.prisma.configSecret.findUniqueOrThrow({
      where: { clusterId_name: { clusterId: clusters.secrets, name: 'bridge-user' } },
    });
    expect(row.cipher).not.toContain(SECRET_VALUE);
    expect(row.cipher).not.toContain(Buffer.from(SECRET_VALUE).toString('base64'));
    expect(row.updatedBy).toBe('admin');

    const listed = await admin<{ items: Array<Record<string, unknown>> }>('GET', base());
    expect(listed.status).toBe(200);
    expect(listed.json.items.map((item) => Object.keys(item).sort())).toEqual([['name', 'updatedAt', 'updatedBy']]);
    expect(listed.json.items[0]).toMatchObject({ name: 'bridge-user', updatedBy: 'admin' });
    const answers = [dry, put, listed, await admin('GET', `/clusters/${clusters.secrets}/config`)];
    for (const answer of answers) expect(JSON.stringify(answer.json)).not.toContain(SECRET_VALUE);
    const audit = await secured.runtime.prisma.auditEvent.findMany({ where: { clusterId: clusters.secrets } });
    expect(audit.map((entry) => [entry.action, entry.dryRun, entry.target])).toEqual(
      expect.arrayContaining([
        ['config.secret.put', true, 'bridge-user'],
        ['config.secret.put', false, 'bridge-user'],
      ]),
    );
    const everyAudit = await secured.runtime.prisma.auditEvent.findMany();
    expect(JSON.stringify(everyAudit)).not.toContain(SECRET_VALUE);

    expectProblem(await admin('DELETE', `${base()}/unknown-credential`), 404);
    const dryRemoval = await admin('DELETE', `${base()}/bridge-user?dryRun=true`);
    expect(dryRemoval.status, JSON.stringify(dryRemoval.json)).toBe(200);
    expect(await secured.runtime.prisma.configSecret.count({ where: { clusterId: clusters.secrets } })).toBe(1);
    const removed = await admin('DELETE', `${base()}/bridge-user`);
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect(removed.json).toEqual({ name: 'bridge-user', dryRun: false });
    expect(await secured.runtime.prisma.configSecret.count({ where: { clusterId: clusters.secrets } })).toBe(0);
    expect((await admin<{ items: unknown[] }>('GET', base())).json.items).toEqual([]);
    expectProblem(await admin('DELETE', `${base()}/bridge-user`), 404);
    // A name the vault cannot hold is a bad field.
    expectProblem(await admin('PUT', `${base()}/${encodeURIComponent('.hidden')}`, { value: 'v' }), 400);
  });
});

describe('a cluster without a revision', () => {
  it('answers plan and apply with 409 no-revision', async () => {
    const plan = expectProblem(await admin('GET', `/clusters/${clusters.empty}/config/plan`), 409);
    expect(plan.type).toBe('no-revision');
    const apply = expectProblem(
      await admin('POST', `/clusters/${clusters.empty}/config/apply`, { planHash: NO_PLAN, dryRun: true }),
      409,
    );
    expect(apply.type).toBe('no-revision');
    const real = expectProblem(
      await admin('POST', `/clusters/${clusters.empty}/config/apply`, { planHash: NO_PLAN }),
      409,
    );
    expect(real.type).toBe('no-revision');
    expect(await secured.runtime.prisma.configApplyRun.count({ where: { clusterId: clusters.empty } })).toBe(0);
    // The overview of such a cluster is empty, not an error.
    const overview = await admin<{ revision: unknown; drift: unknown[] }>('GET', `/clusters/${clusters.empty}/config`);
    expect(overview.status, JSON.stringify(overview.json)).toBe(200);
    expect(overview.json).toMatchObject({ revision: null, drift: [] });
  });
});
