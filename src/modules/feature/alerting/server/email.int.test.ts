// Email channels on a real database, against a real SMTP server started by the test (the npm package smtp-server on
// 127.0.0.1, requiring the channel's user and password): a test send arrives with its subject and body, logged and
// audited; the SMTP password is sealed and never listed; a firing alert's email names the rule, subject, value and
// cluster; a server that refuses the message is retried with backoff, each refusal on the delivery log.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClusterRow } from '../../../../../test/support/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues } from '../../../../../test/support/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '../../../../../test/support/secured-runtime.ts';
import { signIn, type AuthHeaders } from '../../../../../test/support/sign-in.ts';
import { deliverDue } from './deliverer.ts';
import { evaluateCluster } from './evaluator.ts';

interface Mail {
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
}

const PASSWORD = 'smtp-password-of-the-test';

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_match, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .split(/(=[0-9A-F]{2})/i)
    .flatMap((part) =>
      /^=[0-9A-F]{2}$/i.test(part) ? [Buffer.from([parseInt(part.slice(1), 16)])] : [Buffer.from(part, 'utf8')],
    );
  return Buffer.concat(bytes).toString('utf8');
}

/** The subject and the plain-text body of a single-part message as nodemailer writes it. */
function parseMail(raw: string, envelope: { from: string; to: string[] }): Mail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { ...envelope, subject: decodeWords(header('Subject')), text: text.replace(/\r\n/g, '\n') };
}

/** A local SMTP server: it keeps what it accepts, or refuses every message with `refuse`. */
async function startSink(options: { refuse?: string } = {}) {
  const mails: Mail[] = [];
  const attempts: string[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'flotilla' && auth.password === PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        attempts.push(new Date().toISOString());
        if (options.refuse) {
          callback(Object.assign(new Error(options.refuse), { responseCode: 550 }));
          return;
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const to = session.envelope.rcptTo.map((recipient) => recipient.address);
        mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), { from, to }));
        callback(null);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    attempts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let secured: SecuredRuntime;
let auth: AuthHeaders;
let clusterId: string;
let sink: Awaited<ReturnType<typeof startSink>>;
let refusing: Awaited<ReturnType<typeof startSink>>;

async function call(method: string, path: string, body?: unknown) {
  const response = await secured.rest(
    new Request(`http://127.0.0.1/api/v1${path}`, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

const deps = () => ({ db: secured.runtime.db, prisma: secured.runtime.prisma, registry: secured.runtime.registry });

const emailConfig = (port: number) => ({
  kind: 'email',
  host: '127.0.0.1',
  port,
  tls: 'none',
  user: 'flotilla',
  password: PASSWORD,
  from: 'flotilla@example.test',
  to: ['oncall@example.test', 'lead@example.test'],
});

beforeAll(async () => {
  secured = await openSecuredRuntime();
  auth = await signIn(secured.rest, 'http://127.0.0.1');
  clusterId = await insertClusterRow(secured.runtime.prisma, { name: 'mailed' });
  const nodeId = await insertScrapedNode(secured.runtime.prisma, {
    clusterId,
    brokerNodeId: 'node-a',
    brokerName: 'broker-a',
    serving: true,
    sweptAt: new Date(),
  });
  await insertScrapedQueues(secured.runtime.prisma, { clusterId, nodeId, scrapedAt: new Date() }, [
    { queueName: 'billing', messageCount: 500 },
    { queueName: 'invoices', messageCount: 700 },
  ]);
  sink = await startSink();
  refusing = await startSink({ refuse: 'Mailbox unavailable (refused by the test)' });
});

afterAll(async () => {
  await sink.close();
  await refusing.close();
  await secured.close();
});

let channelId: string;

describe('an email channel', () => {
  it('is created with its SMTP password sealed and listed without it', async () => {
    const bad = await call('POST', '/alerts/channels', {
      name: 'bad-mail',
      config: { ...emailConfig(sink.port), to: ['not an address'] },
    });
    expect(bad).toMatchObject({ status: 400 });
    const created = await call('POST', '/alerts/channels', { name: 'oncall-mail', config: emailConfig(sink.port) });
    expect(created).toMatchObject({ status: 200, json: { kind: 'email' } });
    channelId = created.json.id as string;
    expect(created.json.target).toBe(`smtp://127.0.0.1:${sink.port} → oncall@example.test, lead@example.test`);
    const row = await secured.runtime.prisma.alertChannel.findUniqueOrThrow({ where: { id: channelId } });
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    const list = await call('GET', '/alerts/channels');
    expect(JSON.stringify(list.json)).not.toContain(PASSWORD);
    const audit = await secured.runtime.prisma.auditEvent.findFirstOrThrow({
      where: { action: 'alert.channel.create' },
    });
    expect(JSON.stringify(audit)).not.toContain(PASSWORD);
  });

  it('sends a test email that arrives with its subject and body, logged and audited', async () => {
    const dry = await call('POST', `/alerts/channels/${channelId}/test`, { dryRun: true });
    expect(dry).toMatchObject({ status: 200, json: { delivered: false, dryRun: true } });
    expect(sink.mails).toHaveLength(0);

    const sent = await call('POST', `/alerts/channels/${channelId}/test`, {});
    expect(sent).toMatchObject({ status: 200, json: { delivered: true, dryRun: false } });
    expect(sent.json.response).toMatch(/^250 /);
    expect(sink.mails).toHaveLength(1);
    const [mail] = sink.mails;
    expect(mail).toMatchObject({
      from: 'flotilla@example.test',
      to: ['oncall@example.test', 'lead@example.test'],
      subject: '[Flotilla] Test notification — oncall-mail',
    });
    expect(mail?.text).toContain('This is a test notification from Flotilla through the channel "oncall-mail".');
    expect(await secured.runtime.prisma.alertDelivery.findFirst({ where: { channelId, event: 'test' } })).toMatchObject(
      { status: 'delivered', attempt: 1 },
    );
    expect(
      await secured.runtime.prisma.auditEvent.findFirst({ where: { action: 'alert.channel.test', dryRun: false } }),
    ).toMatchObject({ outcome: 'SUCCEEDED', target: 'oncall-mail' });
  });

  it('fails a test send when the password is wrong, saying what the server answered', async () => {
    const wrong = await call('POST', '/alerts/channels', {
      name: 'wrong-password',
      config: { ...emailConfig(sink.port), password: 'not-the-password' },
    });
    const sent = await call('POST', `/alerts/channels/${wrong.json.id as string}/test`, {});
    expect(sent).toMatchObject({ status: 200, json: { delivered: false } });
    expect(sent.json.response).toMatch(/535|Invalid username or password/);
    expect(JSON.stringify(sent.json)).not.toContain('not-the-password');
    await call('DELETE', `/alerts/channels/${wrong.json.id as string}`, {});
  });

  it('delivers a firing alert’s email naming the rule, subject, value and cluster', async () => {
    sink.mails.length = 0;
    const rule = await call('POST', '/alerts/rules', {
      name: 'Billing backlog',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 100 } },
      pattern: 'billing',
      severity: 'critical',
      labels: { team: 'payments' },
      channelIds: [channelId],
    });
    expect(rule.status).toBe(200);
    expect(await evaluateCluster(deps(), clusterId)).toMatchObject({ transitions: 1, queuedDeliveries: 1 });
    expect(await deliverDue(secured.runtime.db, secured.runtime.prisma)).toBe(1);
    expect(sink.mails).toHaveLength(1);
    const [mail] = sink.mails;
    expect(mail?.subject).toBe('[CRITICAL] Firing: Billing backlog — billing on mailed (value 500)');
    expect(mail?.text).toContain('Rule: Billing backlog\n');
    expect(mail?.text).toContain('State: firing\n');
    expect(mail?.text).toContain(`Cluster: mailed (${clusterId})\n`);
    expect(mail?.text).toContain('Subject: billing\n');
    expect(mail?.text).toContain('Value: 500\n');
    expect(mail?.text).toContain('Labels: team=payments\n');
    const alert = await secured.runtime.prisma.alert.findFirstOrThrow({ where: { subject: 'billing' } });
    const log = await call('GET', `/alerts/${alert.id}/deliveries`);
    expect(log.json.items).toMatchObject([{ channelId, event: 'firing', status: 'delivered', attempt: 1 }]);
    expect((log.json.items as { response: string }[])[0]?.response).toMatch(/^250 /);
  });

  it('retries a message the SMTP server refuses, with backoff, each refusal logged', async () => {
    const refused = await call('POST', '/alerts/channels', {
      name: 'refused-mail',
      config: emailConfig(refusing.port),
    });
    const refusedId = refused.json.id as string;
    await call('POST', '/alerts/rules', {
      name: 'Invoices backlog',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 100 } },
      pattern: 'invoices',
      channelIds: [refusedId],
    });
    expect(await evaluateCluster(deps(), clusterId)).toMatchObject({ queuedDeliveries: 1 });
    expect(await deliverDue(secured.runtime.db, secured.runtime.prisma)).toBe(1);
    expect(refusing.attempts).toHaveLength(1);
    const first = await secured.runtime.prisma.alertDelivery.findFirstOrThrow({ where: { channelId: refusedId } });
    expect(first).toMatchObject({ status: 'pending', attempt: 1 });
    expect(first.response).toMatch(/550/);
    expect(first.response).toContain('Mailbox unavailable');
    expect(first.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: nothing is tried now; once due, the second attempt is refused and logged too.
    expect(await deliverDue(secured.runtime.db, secured.runtime.prisma)).toBe(0);
    expect(await deliverDue(secured.runtime.db, secured.runtime.prisma, new Date(Date.now() + 10 * 60_000))).toBe(1);
    expect(refusing.attempts).toHaveLength(2);
    const second = await secured.runtime.prisma.alertDelivery.findFirstOrThrow({ where: { channelId: refusedId } });
    expect(second).toMatchObject({ status: 'pending', attempt: 2 });
    expect(second.response).toMatch(/550/);
    // After the last attempt the row is failed, and stays on the log.
    for (let attempt = 3; attempt <= 6; attempt += 1) {
      await deliverDue(secured.runtime.db, secured.runtime.prisma, new Date(Date.now() + attempt * 10 * 60_000));
    }
    const last = await secured.runtime.prisma.alertDelivery.findFirstOrThrow({ where: { channelId: refusedId } });
    expect(last).toMatchObject({ status: 'failed', attempt: 6, nextAttemptAt: null });
    expect(refusing.attempts).toHaveLength(6);
    expect(sink.mails.filter((mail) => mail.subject.includes('Invoices'))).toHaveLength(0);
  });
});
