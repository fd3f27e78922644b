// A TCP proxy 127.0.0.1:<port> → 127.0.0.1:<target> whose behaviour a test switches at run time, to put a network
// partition between Flotilla and one broker node without touching the broker:
//   pass       forward both ways
//   delay(ms)  forward, each chunk held back ms milliseconds
//   blackhole  accept and hold connections, drop every byte (the peer sees silence, then its own timeout)
//   cut        destroy open connections and refuse new ones (the peer sees resets)
import net from 'node:net';

export type FaultMode = { kind: 'pass' } | { kind: 'delay'; ms: number } | { kind: 'blackhole' } | { kind: 'cut' };

export interface FaultProxy {
  readonly port: number;
  readonly url: (scheme: string, path?: string) => string;
  setMode(mode: FaultMode): void;
  close(): Promise<void>;
}

function relay(from: net.Socket, to: net.Socket, mode: () => FaultMode): void {
  from.on('data', (chunk: Buffer) => {
    const current = mode();
    if (current.kind === 'blackhole' || current.kind === 'cut') return;
    if (current.kind === 'delay') setTimeout(() => to.destroyed || to.write(chunk), current.ms);
    else to.write(chunk);
  });
}

export async function startFaultProxy(targetPort: number, initial: FaultMode = { kind: 'pass' }): Promise<FaultProxy> {
  let mode = initial;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (mode.kind === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect({ host: '127.0.0.1', port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    relay(client, upstream, () => mode);
    relay(upstream, client, () => mode);
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('fault proxy has no port');
  return {
    port: address.port,
    url: (scheme, path = '') => `${scheme}://127.0.0.1:${address.port}${path}`,
    setMode(next) {
      mode = next;
      if (next.kind === 'cut') for (const socket of sockets) socket.resetAndDestroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
