// A message of a test's own put on a queue over AMQP (ids, headers, properties and annotations of its choosing, e.g.
// the broker's own x-opt-ORIG-ADDRESS, forged): production code reaches rhea only through the broker platform, and
// tests through here or named-client.ts.
import rhea, { type Message } from 'rhea';

export interface AmqpEndpoint {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
}

/** Sends one message to `address` and waits for the broker to accept it. */
export async function sendOwnAmqpMessage(endpoint: AmqpEndpoint, address: string, message: Message): Promise<void> {
  const { host, port, username, password } = endpoint;
  const connection = rhea.create_container().connect({ host, port, username, password, reconnect: false });
  try {
    await new Promise<void>((resolve, reject) => {
      const sender = connection.open_sender({ target: { address } });
      sender.once('sendable', () => {
        sender.send(message);
      });
      sender.once('accepted', () => resolve());
      sender.once('rejected', () => reject(new Error('the broker rejected the message')));
      connection.once('connection_error', () => reject(new Error('no AMQP connection')));
    });
  } finally {
    await new Promise<void>((resolve) => {
      connection.once('connection_close', () => resolve());
      connection.close();
    });
  }
}

export function sendAnnotatedOverAmqp(
  endpoint: AmqpEndpoint,
  queue: string,
  body: string,
  annotations: Record<string, string>,
): Promise<void> {
  return sendOwnAmqpMessage(endpoint, queue, { durable: true, body, message_annotations: annotations });
}
