// The web process: Next.js behind a plain Node HTTP server, so shutdown can close the stream first (open SSE
// responses would otherwise keep `server.close()` waiting forever).
import http from 'node:http';
import next from 'next';
import { CLIENT_ADDRESS_HEADER, clientAddress, isTrustedPeer, parseTrustedProxies } from '../http/client-address.ts';
import { SECURITY_HEADERS } from '../http/security-headers.ts';
import { onShutdown, tellSupervisor } from './child-lifecycle.ts';
import { runShutdownHooks } from './shutdown-hooks.ts';
import { logger, routeConsoleToLog, setLogProcess } from '@/base/log/log.ts';

const log = logger('web');

setLogProcess('web');
routeConsoleToLog('next');
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.FLOTILLA_HOST ?? '0.0.0.0';
process.env.NEXT_MANUAL_SIG_HANDLE = 'true';

const app = next({ dev: false, dir: process.cwd(), hostname, port });
await app.prepare();
const handle = app.getRequestHandler();
const trustedProxies = parseTrustedProxies(process.env.FLOTILLA_TRUSTED_PROXIES);
const server = http.createServer((request, response) => {
  // Always overwritten: route handlers trust this header for the throttle and audit, so a client cannot set it.
  const forwardedFor = request.headers['x-forwarded-for'];
  const address = clientAddress(
    request.socket.remoteAddress,
    Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor,
    trustedProxies,
  );
  request.headers[CLIENT_ADDRESS_HEADER] = address ?? '';
  // A request id reaches the audit log as given only from a trusted proxy; anyone else's is replaced by our own.
  if (!isTrustedPeer(request.socket.remoteAddress, trustedProxies)) delete request.headers['x-request-id'];
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
  void handle(request, response);
});

onShutdown('web', async () => {
  await runShutdownHooks();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
});

server.listen(port, hostname, () => {
  log.info({ hostname, port }, `listening on ${hostname}:${port}`);
  tellSupervisor({ type: 'ready' });
  // The runtime opens on its first request: ask for readiness once, so the modules' start hooks run now (plugins
  // start after the application is ready, safe mode counts this boot) rather than when the first visitor comes.
  const local = hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname;
  const origin = `http://${local.includes(':') ? `[${local}]` : local}:${String(port)}`;
  fetch(`${origin}/actuator/health/readiness`).catch((error: unknown) =>
    log.warn({ err: error }, 'cannot warm the runtime'),
  );
});
