// Registration must not be a way to make Flotilla call arbitrary hosts: a web server that is not an Artemis broker
// (a 404 page, a 200 page) is refused, nothing is saved, and what it answered is never shown back; a host outside
// clusters.allowed-networks is never even dialled.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { allowedNetworksSetting } from './allowed-networks.ts';

const MARKER = 'internal-secret-page-7f3a';
let secured: SecuredRuntime;
let admin: AuthHeaders;
let server: Server;
let port: number;
let requestsSeen = 0;

beforeAll(async () => {
  process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 9).toString('base64');
  secured = await openSecuredRuntime();
  admin = await signIn(secured.rest, 'http://127.0.0.1');
  // Answers 404 with an HTML body under /missing, and 200 HTML anywhere else; counts what reaches it.
  server = createServer((request, response) => {
    requestsSeen++;
    const notFound = request.url?.startsWith('/missing');
    response.writeHead(notFound ? 404 : 200, { 'content-type': 'text/html' });
    response.end(`<html><body>${MARKER}: internal admin page</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await secured.close();
});

async function register(managementUrl: string, name: string) {
  const response = await secured.rest(
    new Request('http://127.0.0.1/api/v1/clusters', {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({
        name,
        environment: 'lab',
        nodes: [{ managementUrl }],
        credentials: { username: 'anyone', password: 'any password' },
      }),
    }),
  );
  return { status: response.status, text: await response.text() };
}

describe('registration of something that is not a broker', () => {
  it.each([
    ['a 404 page', '/missing/console/jolokia'],
    ['a 200 page', '/console/jolokia'],
  ])('refuses %s, saves nothing and never shows what it answered', async (_what, path) => {
    const answer = await register(`http://127.0.0.1:${port}${path}`, `fake-${path.length}`);
    expect(answer.status).toBe(422);
    const body = JSON.parse(answer.text) as { type: string; checks: { id: string; status: string }[] };
    expect(body.type).toBe('registration-checks-failed');
    // Reachability fails (no Jolokia answered), so authentication is never claimed to have worked.
    expect(body.checks.find((check) => check.id === 'reachability')?.status).toBe('fail');
    expect(body.checks.find((check) => check.id === 'authentication')?.status).not.toBe('ok');
    expect(answer.text).not.toContain(MARKER);
    expect(await secured.runtime.prisma.cluster.count()).toBe(0);
  });

  it('never dials a host outside clusters.allowed-networks', async () => {
    const set = (value: string) =>
      secured.rest(
        new Request('http://127.0.0.1/api/v1/settings/clusters.allowed-networks', {
          method: 'PUT',
          headers: { ...admin, 'content-type': 'application/json' },
          body: JSON.stringify({ value }),
        }),
      );
    expect((await set('10.0.0.0/8')).status).toBe(200);
    await expect.poll(() => secured.runtime.settings.string(allowedNetworksSetting)).toBe('10.0.0.0/8');
    const before = requestsSeen;
    for (const host of ['127.0.0.1', 'localhost']) {
      const answer = await register(`http://${host}:${port}/console/jolokia`, `outside-${host}`);
      expect(answer.status).toBe(422);
      expect(answer.text).toMatch(/outside the allowed networks/);
      expect(answer.text).toMatch(/clusters\.allowed-networks/);
    }
    expect(requestsSeen).toBe(before);
    expect((await set('not a network')).status).toBe(400);
    await set('127.0.0.0/8, ::1/128, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7');
  });
});
