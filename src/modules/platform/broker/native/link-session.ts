// One short-lived session on a node's pooled connection for one operation (a browse, a send). Each
// operation gets its own session so a failing link never disturbs the subscription or other operations,
// and everything it opened is closed in order (links, then session) with bounded waits.
import type { EventContext, Receiver, Sender, Session } from 'rhea';
import { closeLink, closeSession } from './bounded-close.ts';
import { linkErrorDetail } from './link-error.ts';
import type { NativeEndpoint } from './native-endpoint.ts';
import { nativeConnectionFor, nativeOptions } from './native-pool.ts';

export class NativeOperationError extends Error {
  readonly condition: string | undefined;
  constructor(message: string, condition?: string) {
    super(message);
    this.name = 'NativeOperationError';
    this.condition = condition;
  }
}

export async function withSession<T>(
  endpoint: NativeEndpoint,
  work: (session: Session, links: (Receiver | Sender)[]) => Promise<T>,
): Promise<T> {
  const options = nativeOptions();
  const connection = await nativeConnectionFor(endpoint).whenOpen(options.connectTimeoutMs);
  const session = connection.create_session();
  session.begin();
  const links: (Receiver | Sender)[] = [];
  try {
    return await work(session, links);
  } finally {
    for (const link of links) await closeLink(link, options.closeTimeoutMs);
    await closeSession(session, options.closeTimeoutMs);
  }
}

function linkError(link: Receiver | Sender, what: string): NativeOperationError {
  const { condition, description } = linkErrorDetail(link);
  return new NativeOperationError(`${what}: ${condition ?? 'refused'}: ${description ?? 'no reason given'}`, condition);
}

/** Resolves when the broker attached the link, rejects with its reason when it refused. */
export function linkAttached(link: Receiver | Sender, what: string, timeoutMs: number): Promise<void> {
  const prefix = link.is_receiver() ? 'receiver' : 'sender';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new NativeOperationError(`${what}: no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    link.once(`${prefix}_open`, () => {
      // A refusal arrives as a source-/target-less attach followed by a detach with the error.
      const terminus: unknown = link.is_receiver() ? link.source : link.target;
      if (terminus) {
        clearTimeout(timer);
        resolve();
      }
    });
    link.once(`${prefix}_error`, () => {
      clearTimeout(timer);
      reject(linkError(link, what));
    });
    link.once(`${prefix}_close`, (context: EventContext) => {
      clearTimeout(timer);
      reject(linkError(context.receiver ?? context.sender ?? link, what));
    });
  });
}
