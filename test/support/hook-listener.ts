// A real HTTP listener on loopback standing in for a webhook receiver: it records every request's headers and body
// and answers 204.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HookListener {
  readonly url: string;
  readonly received: { headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

export async function startHookListener(path = '/hook'): Promise<HookListener> {
  const received: HookListener['received'] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
