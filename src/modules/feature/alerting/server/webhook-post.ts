// One POST of a notification to a webhook, over node:http or node:https rather than fetch: the socket must connect
// to the address checked against alerting.allowed-networks (a lookup that answers only it), which fetch cannot be
// told without an extra dependency. Redirects are never followed (a 302 to a loopback host would bypass the check)
// and the answer's body is never read: only its status line is reported (remote-answer.ts).
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, resolveReachable, type ChannelReach } from './channel-reach.ts';
import { httpAnswerOf } from './remote-answer.ts';

export interface WebhookOutcome {
  readonly ok: boolean;
  readonly response: string;
}

/** Resolves, checks and posts; throws ReachRefused before any connection when the URL's host is not reachable. */
export async function postWebhook(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  reach: ChannelReach,
  timeoutMs: number,
): Promise<WebhookOutcome> {
  const target = new URL(url);
  const addresses = await resolveReachable(reach, target.hostname);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: pinnedLookup(addresses),
        agent: false,
      },
      (response) => {
        clearTimeout(timer);
        const status = response.statusCode ?? 0;
        response.destroy();
        resolve({ ok: status >= 200 && status < 300, response: httpAnswerOf(status) });
      },
    );
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}
