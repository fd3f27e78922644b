// Email channels on a real database, against a real SMTP server started by the test (the npm package smtp-server on
// 127.0.0.1, requiring the channel's user and password): a test send arrives with its subject and body, logged and
// audited; the SMTP password is sealed and never listed; a firing alert's email names the rule, subject, value and
// cluster; a server that refuses the message is retried with backoff, each refusal on the delivery log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOneNodeCluster } from '@test/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import type { RestCall } from '@test/rest-call.ts';
import { startSmtpSink } from '@test/smtp-sink.ts';
import { deliverDue } from './deliverer.ts';
import { evaluateCluster } from './evaluator.ts';

const PASSWORD = 'smtp-password-of-the-test';

let secured: SecuredRuntime;
let call: RestCall;
let clusterId: string;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let refusing: Awaited<ReturnType<typeof startSmtpSink>>;

const deps = () => ({
  db: secured.runtime.db,
  prisma: secured.runtime.prisma,
  registry: secured.runtime.registry,
  settings: secured.runtime.settings,
});

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
  ({ call } = await secured.signedIn());
  // The test's listeners are on loopback, which channels reach only when listed, as an operator would list it.
  await allowChannelNetworks(call, '127.0.0.1', secured.runtime.settings);
  ({ clusterId } = await insertOneNodeCluster(secured.runtime.prisma, 'mailed', [
    { queueName: 'billing', messageCount: 500 },
    { queueName: 'invoices', messageCount: 700 },
  ]));
  sink = await startSmtpSink({ user: 'flotilla', password: PASSWORD });
  refusing = await startSmtpSink({
    user: 'flotilla',
    password: PASSWORD,
    refuse: 'Mailbox unavailable (refused by the test)',
  });
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

  it('never sends the password over a plain connection when STARTTLS is required, nor speaks TLS to plain SMTP', async () => {
    const logins = sink.logins.length;
    const strict = await call('POST', '/alerts/channels', {
      name: 'starttls-required',
      config: { ...emailConfig(sink.port), tls: 'starttls' },
    });
    const refused = await call('POST', `/alerts/channels/${strict.json.id as string}/test`, {});
    expect(refused).toMatchObject({ status: 200, json: { delivered: false } });
    expect(refused.json.response).toMatch(/STARTTLS/i);
    const implicit = await call('POST', '/alerts/channels', {
      name: 'implicit-tls',
      config: { ...emailConfig(sink.port), tls: 'tls' },
    });
    expect(await call('POST', `/alerts/channels/${implicit.json.id as string}/test`, {})).toMatchObject({
      status: 200,
      json: { delivered: false },
    });
    expect(sink.logins).toHaveLength(logins);
    expect(sink.mails).toHaveLength(1);
    for (const id of [strict.json.id, implicit.json.id]) await call('DELETE', `/alerts/channels/${id as string}`, {});
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
    expect(await deliverDue(deps())).toBe(1);
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
    expect(await deliverDue(deps())).toBe(1);
    expect(refusing.attempts).toHaveLength(1);
    const first = await secured.runtime.prisma.alertDelivery.findFirstOrThrow({ where: { channelId: refusedId } });
    expect(first).toMatchObject({ status: 'pending', attempt: 1 });
    expect(first.response).toMatch(/550/);
    expect(first.response).toContain('Mailbox unavailable');
    expect(first.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: nothing is tried now; once due, the second attempt is refused and logged too.
    expect(await deliverDue(deps())).toBe(0);
    expect(await deliverDue(deps(), new Date(Date.now() + 10 * 60_000))).toBe(1);
    expect(refusing.attempts).toHaveLength(2);
    const second = await secured.runtime.prisma.alertDelivery.findFirstOrThrow({ where: { channelId: refusedId } });
    expect(second).toMatchObject({ status: 'pending', attempt: 2 });
    expect(second.response).toMatch(/550/);
    // After the last attempt the row is failed, and stays on the log.
    for (let attempt = 3; attempt <= 6; attempt += 1) {
      await deliverDue(deps(), new Date(Date.now() + attempt * 10 * 60_000));
    }
    const last = await secured.runtime.prisma.alertDelivery.findFirstOrThrow({ where: { channelId: refusedId } });
    expect(last).toMatchObject({ status: 'failed', attempt: 6, nextAttemptAt: null });
    expect(refusing.attempts).toHaveLength(6);
    expect(sink.mails.filter((mail) => mail.subject.includes('Invoices'))).toHaveLength(0);
  });
});
