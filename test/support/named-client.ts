// A plain AMQP client of a test's own (not Flotilla's native client): it chooses its container id, which the broker
// reports as the client id, and its socket tells which local port the broker sees as the client's remote address.
import rhea, { type Connection } from 'rhea';
import type { BrokerNode } from './artemis/index.ts';

export async function openOwnConsumer(node: BrokerNode, queue: string, containerId: string) {
  const container = rhea.create_container({ id: containerId });
  const connection: Connection = container.connect({
    host: '127.0.0.1',
    port: node.amqpPort,
    username: node.user,
    password: node.password,
    reconnect: false,
  });
  await new Promise<void>((resolve, reject) => {
    connection.once('receiver_open', () => resolve());
    connection.once('connection_error', () => reject(new Error('connection refused')));
    connection.open_receiver({ source: queue, credit_window: 0 });
  });
  const socket = (connection as unknown as { socket: { localPort: number } }).socket;
  return {
    localPort: socket.localPort,
    close: () =>
      new Promise<void>((resolve) => {
        connection.once('connection_close', () => resolve());
        connection.close();
      }),
  };
}
