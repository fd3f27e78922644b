// MCP tests as an agent sees the server: the app's /mcp handler behind a real local HTTP listener, and the official
// SDK's Client over StreamableHTTPClientTransport with a bearer API token. Also the users and tokens they act as.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BuiltInRole } from '@/modules/kernel/plugin/index.ts';
import { hashPassword } from '@/modules/kernel/security/index.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';
import { signIn } from './sign-in.ts';

export interface Listener {
  readonly url: string;
  close(): Promise<void>;
}

function requestOf(incoming: IncomingMessage, body: Buffer, base: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const one of value) headers.append(name, one);
  }
  const method = incoming.method ?? 'GET';
  return new Request(new URL(incoming.url ?? '/', base), {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' || body.length === 0 ? undefined : new Uint8Array(body),
  });
}

/** A fetch-style handler served on 127.0.0.1 at a free port. */
export async function serveOverHttp(handler: (request: Request) => Promise<Response>): Promise<Listener> {
  let base = '';
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      handler(requestOf(incoming, Buffer.concat(chunks), base))
        .then(async (response) => {
          outgoing.writeHead(response.status, Object.fromEntries(response.headers));
          outgoing.end(Buffer.from(await response.arrayBuffer()));
        })
        .catch((error: unknown) => {
          outgoing.writeHead(500).end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The SDK's own client, connected to `<url>/mcp` with the token as a bearer header (or none). */
export async function connectMcp(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'flotilla-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  return client;
}

/** A local user holding one built-in role everywhere, signed in, with an API token of the given name. */
export async function userWithToken(
  runtime: WebRuntime,
  rest: (request: Request) => Promise<Response>,
  user: { username: string; role: BuiltInRole; tokenName: string },
): Promise<string> {
  const password = `${user.username} password 1`;
  const userId = randomUUID();
  await runtime.prisma.user.create({
    data: { id: userId, username: user.username, providerId: 'local', passwordHash: await hashPassword(password) },
  });
  const role = await runtime.prisma.role.findFirstOrThrow({ where: { name: user.role } });
  await runtime.prisma.grant.create({
    data: { id: randomUUID(), roleId: role.id, principal: 'USER', userId, scopeKind: 'GLOBAL' },
  });
  const auth = await signIn(rest, 'http://127.0.0.1', { username: user.username, password });
  return issueToken(rest, auth, user.tokenName);
}

/** A new API token of the signed-in user. */
export async function issueToken(
  rest: (request: Request) => Promise<Response>,
  auth: Record<string, string>,
  name: string,
): Promise<string> {
  const response = await rest(
    new Request('http://127.0.0.1/api/v1/account/tokens', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    }),
  );
  if (response.status !== 200) throw new Error(`token ${name}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
