// Where notification channels may send, on a real database against real listeners on loopback (issue 25, item 4):
// - by default (alerting.allowed-networks empty) a channel to loopback, metadata or private addresses is refused
//   at creation and update, dry runs too, however the address is spelt, and nothing is sent;
// - with 127.0.0.1 listed (as an operator would) a test send reports the status line only: a loopback service's
//   body and reason phrase are in no answer, the channels list nor the delivery log;
// - a redirect is reported and never followed, even to an address that would be allowed;
// - the setting narrowed after creation refuses every later send: test sends, queued deliveries, webhook and SMTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowChannelNetworks } from '@test/channel-networks.ts';
import { insertOneNodeCluster } from '@test/queue-rows.ts';
import type { RestCall } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { startSmtpSink } from '@test/smtp-sink.ts';
import { deliverDue } from './deliverer.ts';
import { evaluateCluster } from './evaluator.ts';

const MARKER = 'loopback-secret-7f3a';
const REFUSED = /not a public address nor in alerting\.allowed-networks|does not resolve/;

let secured: SecuredRuntime;
let call: RestCall;
let clusterId: string;
let secretive: Server;
let redirecting: Server;
let redirectTarget: Server;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const heard = { secretive: 0, redirectTarget: 0 };

const deps = () => ({
  db: secured.runtime.db,
  prisma: secured.runtime.prisma,
  registry: secured.runtime.registry,
  settings: secured.runtime.settings,
});
const portOf = (server: Server) => (server.address() as AddressInfo).port;

async function listen(server: Server, host: string): Promise<Server> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return server;
}

const emailConfig = () => ({
  kind: 'email',
  host: '127.0.0.1',
  port: sink.port,
  tls: 'none',
  user: 'flotilla',
  password: 'smtp-password-of-the-test',
  from: 'flotilla@example.test',
  to: ['oncall@example.test'],
});

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ call } = await secured.signedIn());
  ({ clusterId } = await insertOneNodeCluster(secured.runtime.prisma, 'reached', [
    { queueName: 'billing', messageCount: 500 },
  ]));
  // A loopback service that answers with something it should not show, in its body and its reason phrase.
  secretive = await listen(
    createServer((request, response) => {
      heard.secretive += 1;
      request.resume();
      response.writeHead(200, `OK ${MARKER}`, { 'content-type': 'text/plain' }).end(`admin token: ${MARKER}`);
    }),
    '127.0.0.1',
  );
  redirectTarget = await listen(
    createServer((request, response) => {
      heard.redirectTarget += 1;
      request.resume();
      response.writeHead(200).end(MARKER);
    }),
    '127.0.0.2',
  );
  redirecting = await listen(
    createServer((request, response) => {
      request.resume();
      response.writeHead(302, { location: `http://127.0.0.2:${portOf(redirectTarget)}/internal` }).end(MARKER);
    }),
    '127.0.0.1',
  );
  sink = await startSmtpSink({ user: 'flotilla', password: 'smtp-password-of-the-test' });
});

afterAll(async () => {
  for (const server of [secretive, redirecting, redirectTarget]) await new Promise((resolve) => server.close(resolve));
  await sink.close();
  await secured.close();
});

let hookId: string;
let mailId: string;

describe('notification channels’ reach', () => {
  it('refuses, by default, a channel to loopback, metadata or private addresses however spelt, saving nothing', async () => {
    const port = portOf(secretive);
    const urls = [
      `http://127.0.0.1:${port}/hook`,
      `http://2130706433:${port}/hook`,
      `http://017700000001:${port}/hook`,
      `http://0x7f.1:${port}/hook`,
      `http://127.1:${port}/hook`,
      `http://[::1]:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      `http://localhost:${port}/hook`,
      `http://localhost.:${port}/hook`,
      `http://good.example@127.0.0.1:${port}/hook`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://10.0.0.1/hook',
    ];
    for (const url of urls) {
      for (const dryRun of [true, false]) {
        const answer = await call('POST', '/alerts/channels', {
          name: 'refused-hook',
          config: { kind: 'webhook', url },
          dryRun,
        });
        expect(answer, url).toMatchObject({ status: 400, json: { type: 'validation-failed' } });
        expect(JSON.stringify(answer.json), url).toMatch(/config\.url/);
        expect(JSON.stringify(answer.json), url).toMatch(REFUSED);
      }
    }
    const mail = await call('POST', '/alerts/channels', { name: 'refused-mail', config: emailConfig() });
    expect(mail).toMatchObject({ status: 400, json: { type: 'validation-failed' } });
    expect(JSON.stringify(mail.json)).toMatch(/config\.host/);
    expect(await secured.runtime.prisma.alertChannel.count()).toBe(0);
    expect(await secured.runtime.prisma.auditEvent.count({ where: { action: 'alert.channel.create' } })).toBe(0);
    expect(heard.secretive).toBe(0);
    expect(sink.attempts).toHaveLength(0);
  });

  it('with 127.0.0.1 listed, reports a loopback service’s status line only, never its body or reason', async () => {
    await allowChannelNetworks(call, '127.0.0.1', secured.runtime.settings);
    const created = await call('POST', '/alerts/channels', {
      name: 'loopback-hook',
      config: { kind: 'webhook', url: `http://127.0.0.1:${portOf(secretive)}/hook` },
    });
    expect(created.status).toBe(200);
    hookId = created.json.id as string;
    const sent = await call('POST', `/alerts/channels/${hookId}/test`, {});
    expect(sent).toMatchObject({ status: 200, json: { delivered: true, response: '200 OK' } });
    expect(heard.secretive).toBe(1);
    const list = await call('GET', '/alerts/channels');
    expect(list.json).toMatchObject({ items: [{ name: 'loopback-hook', lastDelivery: { response: '200 OK' } }] });
    const rows = await secured.runtime.prisma.alertDelivery.findMany();
    const audit = await secured.runtime.prisma.auditEvent.findMany({ where: { action: 'alert.channel.test' } });
    for (const seen of [sent.json, list.json, rows, audit]) expect(JSON.stringify(seen)).not.toContain(MARKER);
    const mail = await call('POST', '/alerts/channels', { name: 'loopback-mail', config: emailConfig() });
    expect(mail.status).toBe(200);
    mailId = mail.json.id as string;
  });

  it('reports a redirect and never follows it, even to an address that would be allowed', async () => {
    await allowChannelNetworks(call, '127.0.0.1, 127.0.0.2', secured.runtime.settings);
    const created = await call('POST', '/alerts/channels', {
      name: 'redirecting-hook',
      config: { kind: 'webhook', url: `http://127.0.0.1:${portOf(redirecting)}/hook` },
    });
    const sent = await call('POST', `/alerts/channels/${created.json.id as string}/test`, {});
    expect(sent).toMatchObject({
      status: 200,
      json: { delivered: false, response: '302 Found (redirects are not followed)' },
    });
    expect(JSON.stringify(sent.json)).not.toContain(MARKER);
    expect(heard.redirectTarget).toBe(0);
    await call('DELETE', `/alerts/channels/${created.json.id as string}`, {});
    await allowChannelNetworks(call, '127.0.0.1', secured.runtime.settings);
  });

  it('refuses every send once the setting no longer lists the address: test sends, deliveries, webhook and SMTP', async () => {
    await call('POST', '/alerts/rules', {
      name: 'Billing backlog',
      condition: { kind: 'queue-threshold', params: { metric: 'depth', threshold: 100 } },
      pattern: 'billing',
      channelIds: [hookId, mailId],
    });
    await allowChannelNetworks(call, '', secured.runtime.settings);
    const before = heard.secretive;
    for (const id of [hookId, mailId]) {
      const sent = await call('POST', `/alerts/channels/${id}/test`, {});
      expect(sent).toMatchObject({ status: 200, json: { delivered: false } });
      expect(sent.json.response).toMatch(/^not sent: 127\.0\.0\.1 is not a public address/);
    }
    expect(await evaluateCluster(deps(), clusterId)).toMatchObject({ queuedDeliveries: 2 });
    expect(await deliverDue(deps())).toBe(2);
    const queued = await secured.runtime.prisma.alertDelivery.findMany({ where: { event: 'firing' } });
    expect(queued).toHaveLength(2);
    for (const row of queued) expect(row.response).toMatch(/^not sent: 127\.0\.0\.1 is not a public address/);
    expect(heard.secretive).toBe(before);
    expect(sink.attempts).toHaveLength(0);
    // Changing the channel's configuration is checked again too.
    const update = await call('PATCH', `/alerts/channels/${hookId}`, {
      config: { kind: 'webhook', url: `http://127.0.0.1:${portOf(secretive)}/other` },
    });
    expect(update).toMatchObject({ status: 400, json: { type: 'validation-failed' } });
  });
});
