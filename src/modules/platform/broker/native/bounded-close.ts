// Closing AMQP endpoints without ever hanging: each close waits for the peer's answer at most `timeoutMs`,
// then moves on. A broker that stopped answering (frozen JVM, half-open TCP) must not block shutdown.
import type { Socket } from 'node:net';
import type { Connection, Receiver, Sender, Session } from 'rhea';

function waitForEvent(
  emitter: {
    once(event: string, listener: () => void): unknown;
    removeListener(event: string, listener: () => void): unknown;
  },
  events: readonly string[],
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const event of events) emitter.removeListener(event, done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    for (const event of events) emitter.once(event, done);
  });
}

export async function closeLink(link: Receiver | Sender, timeoutMs: number): Promise<void> {
  if (link.is_itself_closed() || !link.connection.is_open()) return;
  const answered = waitForEvent(
    link,
    link.is_receiver() ? ['receiver_close', 'receiver_error'] : ['sender_close', 'sender_error'],
    timeoutMs,
  );
  link.close();
  await answered;
}

export async function closeSession(session: Session, timeoutMs: number): Promise<void> {
  if (session.is_itself_closed() || !session.connection.is_open()) return;
  const answered = waitForEvent(session, ['session_close', 'session_error'], timeoutMs);
  session.close();
  await answered;
}

/** rhea keeps the socket untyped; dropping it is the last resort when the peer never answers Close. */
function destroySocket(connection: Connection): void {
  const socket = (connection as unknown as { socket?: Socket }).socket;
  socket?.destroy();
}

export async function closeConnection(connection: Connection, timeoutMs: number): Promise<void> {
  if (connection.is_open()) {
    const answered = waitForEvent(connection, ['connection_close', 'connection_error', 'disconnected'], timeoutMs);
    connection.close();
    await answered;
  }
  destroySocket(connection);
}
