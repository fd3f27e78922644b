// A requester in a process of its own, for tests of what a broker does when a requester dies (rr-clients.ts,
// spawnRequesterProcess): it opens a dynamic (temporary) reply queue, sends its requests with reply_to set to the
// address the broker assigned, prints `{"replyAddress": "..."}` as one line on stdout and then waits, consuming any
// replies, until it is killed. Its arguments come as one JSON argument (RequesterProcessArgs). It exits by itself when
// its standard input closes: the parent holds the other end, so a parent that dies takes its requester with it.
import { randomUUID } from 'node:crypto';
import { lettersOnlyId } from './letters-id.ts';
import rhea, { type Delivery, type EventContext, type Sender, type Source } from 'rhea';

/** What the parent passes as the process's one argument, JSON-encoded. */
export interface RequesterProcessArgs {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  readonly requestAddress: string;
  readonly count: number;
}

const SETUP_TIMEOUT_MS = 20_000;

function fail(message: string): never {
  process.stderr.write(`rr-requester-process: ${message}\n`);
  process.exit(1);
}

function parseArgs(): RequesterProcessArgs {
  const raw = process.argv[2];
  if (!raw) fail('expected the arguments as one JSON argument');
  const args = JSON.parse(raw) as RequesterProcessArgs;
  if (!/^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(args.host)) fail(`${args.host} is not a loopback address`);
  return args;
}

const OUTCOMES = ['accepted', 'rejected', 'released', 'modified'] as const;

/** How the broker settled one delivery of the sender. */
function outcomeOf(sender: Sender, delivery: Delivery): Promise<(typeof OUTCOMES)[number]> {
  return new Promise((resolve) => {
    const listeners = OUTCOMES.map((outcome) => {
      const listener = (context: EventContext) => {
        if (context.delivery !== delivery) return;
        for (const [index, name] of OUTCOMES.entries())
          sender.removeListener(name, listeners[index] as typeof listener);
        resolve(outcome);
      };
      sender.on(outcome, listener);
      return listener;
    });
  });
}

async function main(): Promise<void> {
  const args = parseArgs();
  // The parent's end of stdin closes when the parent exits, however it exits.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
  let isReady = false;
  setTimeout(() => {
    if (!isReady) fail(`not set up within ${SETUP_TIMEOUT_MS} ms`);
  }, SETUP_TIMEOUT_MS).unref();

  const container = rhea.create_container({ id: `rr-requester-process-${randomUUID()}` });
  container.on('error', (error: unknown) => fail(`AMQP error: ${String(error)}`));
  const connection = container.connect({
    host: args.host,
    port: args.port,
    username: args.username,
    password: args.password,
    reconnect: false,
    idle_time_out: 30_000,
  });
  connection.on('connection_error', (context: EventContext) =>
    fail(`connection refused: ${JSON.stringify(context.connection.error ?? null)}`),
  );
  connection.on('disconnected', (context: EventContext) => fail(`disconnected: ${String(context.error ?? '')}`));

  // The dynamic source: the broker makes a temporary queue and answers with its address.
  const receiver = connection.open_receiver({ source: { dynamic: true } as Source });
  const replyAddress = await new Promise<string>((resolve) => {
    receiver.once('receiver_open', () => {
      const address = receiver.source.address;
      if (address) resolve(address);
      else fail('the broker assigned no address to the dynamic source');
    });
    receiver.once('receiver_error', () => fail(`reply receiver refused: ${JSON.stringify(receiver.error ?? null)}`));
  });

  const sender = connection.open_sender({ target: { address: args.requestAddress, capabilities: ['queue'] } });
  sender.on('sender_error', () => fail(`request sender refused: ${JSON.stringify(sender.error ?? null)}`));
  for (let index = 0; index < args.count; index++) {
    if (!sender.sendable()) await new Promise((resolve) => sender.once('sendable', resolve));
    const delivery = sender.send({
      message_id: lettersOnlyId('req'),
      correlation_id: lettersOnlyId('corr'),
      reply_to: replyAddress,
      creation_time: new Date(),
      body: { request: index },
    });
    const outcome = await outcomeOf(sender, delivery);
    if (outcome !== 'accepted') fail(`request ${index} ${outcome} by the broker`);
  }
  isReady = true;
  process.stdout.write(`${JSON.stringify({ replyAddress })}\n`);
  // The open connection keeps the process alive; the reply receiver accepts whatever replies arrive.
}

await main();
