// `npm run probe -- <management-url> [--user U --password P] [--amqp <url>]`: prints the capability verdicts of one
// node as JSON and exits 1 when management read is unavailable, so scripts can gate on it. With --amqp it checks
// that the acceptor accepts connections; whether the user may send and receive needs the native client, so an
// open port alone answers UNKNOWN.
import net from 'node:net';
import { parseArgs } from 'node:util';
import { probeCapabilities, type Verdict } from './capability-probe.ts';
import { ManagementClient } from './management-client.ts';

const ACCEPTOR_SNIPPET = `<!-- etc/broker.xml: an acceptor that speaks AMQP on a reachable address -->
<acceptor name="artemis">tcp://0.0.0.0:61616?protocols=CORE,AMQP</acceptor>`;

function checkAcceptor(amqpUrl: string): Promise<Verdict> {
  const url = new URL(amqpUrl);
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 5672) });
    socket.setTimeout(5_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve({
        status: 'UNKNOWN',
        reason: 'the acceptor accepts connections; send/receive permissions need the native client',
      });
    });
    const fail = (reason: string) => {
      socket.destroy();
      resolve({ status: 'UNAVAILABLE', reason, configSnippet: ACCEPTOR_SNIPPET });
    };
    socket.once('error', (error) => fail(`cannot connect to ${amqpUrl}: ${error.message}`));
    socket.once('timeout', () => fail(`no answer from ${amqpUrl} within 5 s`));
  });
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { user: { type: 'string' }, password: { type: 'string' }, amqp: { type: 'string' } },
  });
  const [url] = positionals;
  if (!url) {
    console.error('usage: npm run probe -- <management-url> [--user U --password P] [--amqp <url>]');
    return 2;
  }
  const client = new ManagementClient({ url, user: values.user, password: values.password });
  try {
    const amqp = values.amqp;
    const verdicts = await probeCapabilities(client, amqp ? { messageIo: () => checkAcceptor(amqp) } : {});
    console.log(JSON.stringify({ node: url, verdicts }, null, 2));
    return verdicts.MANAGEMENT_READ.status === 'UNAVAILABLE' ? 1 : 0;
  } finally {
    client.close();
  }
}

process.exitCode = await main();
