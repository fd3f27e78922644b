// StreamConnection against a real local HTTP server speaking server-sent events: keep-alive watchdog, reconnect
// instruction, signals, and unlimited reconnects while the server refuses connections.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamConnection, type StreamSignal, type StreamStatus } from './stream-connection.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const CLUSTER = '00000000-0000-0000-0000-000000000000';
const open = (response: ServerResponse, keepAliveMs: number) => {
  response.writeHead(200, { 'Cache-Control': 'no-cache' });
  response.write(`event: ready\ndata: ${JSON.stringify({ topics: ['health'], dropped: [], keepAliveMs })}\n\n`);
};

async function until<T>(probe: () => T | undefined, timeoutMs = 6_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

class Harness {
  readonly statuses: StreamStatus[] = [];
  readonly signals: StreamSignal[] = [];
  readonly requests: string[] = [];
  resumed = 0;
  private readonly handlers: Handler[] = [];
  private readonly responses = new Set<ServerResponse>();
  connection: StreamConnection | undefined;
  server: Server | undefined;
  port = 0;

  async listen(port = 0): Promise<void> {
    this.server = createServer((request, response) => {
      this.requests.push(request.url ?? '');
      this.responses.add(response);
      response.on('close', () => this.responses.delete(response));
      (this.handlers.shift() ?? ((_, res: ServerResponse) => open(res, 60_000)))(request, response);
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stopServer(): Promise<void> {
    for (const response of this.responses) response.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  then(handler: Handler): this {
    this.handlers.push(handler);
    return this;
  }

  start(): void {
    this.connection = new StreamConnection({
      clusterId: CLUSTER,
      topics: ['health', 'queues'],
      origin: `http://127.0.0.1:${this.port}`,
      backoff: { initialDelayMs: 50, maxDelayMs: 200 },
      onStatus: (status) => this.statuses.push(status),
      onSignal: (signal) => this.signals.push(signal),
      onResumed: () => (this.resumed += 1),
    });
    this.connection.start();
  }

  states(): string[] {
    return this.statuses.map((status) => status.state);
  }
}

let harness: Harness;
afterEach(async () => {
  harness.connection?.close();
  await harness.stopServer().catch(() => undefined);
});

describe('StreamConnection', () => {
  it('asks for every topic of the scope and passes signals on', async () => {
    harness = new Harness();
    await harness.listen();
    harness.then((_, response) => {
      open(response, 60_000);
      response.write(
        `event: health\ndata: {"topic":"health","clusterId":"${CLUSTER}","ts":"2026-01-01T00:00:00Z"}\n\n`,
      );
    });
    harness.start();
    await until(() => harness.signals[0]);
    expect(harness.requests[0]).toBe(`/api/v1/stream?clusterId=${CLUSTER}&topics=health%2Cqueues`);
    expect(harness.signals).toEqual([{ topic: 'health', clusterId: CLUSTER, ts: '2026-01-01T00:00:00Z' }]);
    expect(harness.states()).toEqual(['connecting', 'connected']);
  });

  it('counts a missed keep-alive as a failure and reconnects, then refetches what it may have missed', async () => {
    harness = new Harness();
    await harness.listen();
    // Promises pings every 100 ms, then stays silent: the watchdog gives up after 1.5 × 100 ms + 2 s.
    harness.then((_, response) => open(response, 100));
    harness.start();
    await until(() => (harness.resumed === 1 ? true : undefined));
    expect(harness.states()).toEqual(['connecting', 'connected', 'down', 'down', 'connected']);
    expect(harness.requests).toHaveLength(2);
  });

  it('follows a reconnect instruction without counting a failure', async () => {
    harness = new Harness();
    await harness.listen();
    harness.then((_, response) => {
      open(response, 60_000);
      response.end('event: reconnect\ndata: {"reason":"shutdown","retryMs":50}\n\n');
    });
    harness.start();
    await until(() => (harness.resumed === 1 ? true : undefined));
    expect(harness.states()).toEqual(['connecting', 'connected', 'connecting', 'connecting', 'connected']);
    expect(harness.statuses.every((status) => status.failures === 0)).toBe(true);
  });

  it('keeps trying while the server is gone and reconnects when it is back on the same port', async () => {
    harness = new Harness();
    await harness.listen();
    harness.start();
    await until(() => (harness.states().includes('connected') ? true : undefined));
    const { port } = harness;
    await harness.stopServer();
    await until(() => ((harness.statuses.at(-1)?.failures ?? 0) >= 4 ? true : undefined));
    const failures = harness.statuses.map((status) => status.failures);
    expect(Math.max(...failures)).toBeGreaterThanOrEqual(4);
    expect(harness.statuses.filter((status) => status.retryAt !== undefined).length).toBeGreaterThanOrEqual(4);

    await harness.listen(port);
    await until(() => (harness.resumed === 1 ? true : undefined));
    expect(harness.statuses.at(-1)).toEqual({ state: 'connected', failures: 0 });
  });
});
