// A message put on a queue over AMQP with message annotations of the test's choosing (e.g. the broker's own
// x-opt-ORIG-ADDRESS, forged): production code reaches rhea only through the broker platform, tests through here.
import rhea from 'rhea';

export interface AmqpEndpoint {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
}

export async function sendAnnotatedOverAmqp(
  endpoint: AmqpEndpoint,
  queue: string,
  body: string,
  annotations: Record<string, string>,
): Promise<void> {
  const { host, port, username, password } = endpoint;
  const connection = rhea.create_container().connect({ host, port, username, password, reconnect: false });
  try {
    await new Promise<void>((resolve, reject) => {
      const sender = connection.open_sender(queue);
      sender.once('sendable', () => {
        sender.send({ durable: true, body, message_annotations: annotations });
      });
      sender.once('accepted', () => resolve());
      sender.once('rejected', () => reject(new Error('the broker rejected the message')));
      connection.once('connection_error', () => reject(new Error('no AMQP connection')));
    });
  } finally {
    connection.close();
  }
}
