// Send one message over AMQP and wait for the broker's outcome. A sender per call on its own session:
// sends are operator actions, not a hot path, and a refused target must not poison a shared link.
import type { EventContext } from 'rhea';
import { linkAttached, NativeOperationError, withSession } from './link-session.ts';
import { linkErrorDetail } from './link-error.ts';
import type { NativeEndpoint } from './native-endpoint.ts';
import { nativeOptions } from './native-pool.ts';
import { encodeSendRequest, targetCapabilities, type SendRequest } from './send-request.ts';

export interface SendResult {
  readonly channel: 'native';
  readonly outcome: 'accepted';
}

export async function sendMessage(endpoint: NativeEndpoint, request: SendRequest): Promise<SendResult> {
  const message = encodeSendRequest(request);
  const timeoutMs = nativeOptions().connectTimeoutMs + 20_000;
  return withSession(endpoint, async (session, links) => {
    const capabilities = targetCapabilities(request.routingType);
    const sender = session.open_sender({
      target: { address: request.address, ...(capabilities ? { capabilities } : {}) },
      autosettle: true,
    });
    links.push(sender);
    // Listen for the outcome before anything is awaited: the broker's attach and a refusing detach can
    // arrive in one read and be dispatched together.
    const outcome = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new NativeOperationError(`send to ${request.address}: no outcome within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const fail = (verdict: string) => (context: EventContext) => {
        clearTimeout(timer);
        const state = context.delivery?.remote_state as
          { error?: { condition?: string; description?: string } } | undefined;
        const reason = state?.error?.description ?? state?.error?.condition ?? 'no reason given';
        reject(
          new NativeOperationError(
            `send to ${request.address}: ${verdict} by the broker: ${reason}`,
            state?.error?.condition,
          ),
        );
      };
      // A refusal (no send permission, unknown address) detaches the link.
      const closed = () => {
        clearTimeout(timer);
        const { condition, description } = linkErrorDetail(sender);
        reject(
          new NativeOperationError(
            `send to ${request.address}: the broker closed the link: ${condition ?? 'no condition'}: ${description ?? ''}`,
            condition,
          ),
        );
      };
      sender.once('sender_error', closed);
      sender.once('sender_close', closed);
      sender.once('accepted', () => {
        clearTimeout(timer);
        resolve();
      });
      sender.once('rejected', fail('rejected'));
      sender.once('released', fail('released'));
      sender.once('modified', fail('modified'));
      const transmit = () => sender.send(message);
      if (sender.sendable()) transmit();
      else sender.once('sendable', transmit);
    });
    await Promise.all([linkAttached(sender, `send to ${request.address}`, timeoutMs), outcome]);
    return { channel: 'native', outcome: 'accepted' };
  });
}
