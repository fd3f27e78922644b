// One way for tests and scripts to talk to a broker's Jolokia directly (production code uses the broker platform's
// ManagementClient): a POST with basic auth and the Origin header Artemis's jolokia-access.xml wants, and an error
// that carries Jolokia's own text when the broker refuses.
export interface JolokiaTarget {
  readonly managementUrl: string;
  readonly user: string;
  readonly password: string;
}

export type JolokiaRequest =
  | { readonly type: 'read'; readonly mbean: string; readonly attribute?: string | readonly string[] }
  | {
      readonly type: 'exec';
      readonly mbean: string;
      readonly operation: string;
      readonly arguments: readonly unknown[];
    };

export const brokerMbean = (brokerName: string) => `org.apache.activemq.artemis:broker="${brokerName}"`;

function post(target: JolokiaTarget, body: unknown, timeoutMs: number): Promise<Response> {
  return fetch(target.managementUrl, {
    method: 'POST',
    signal: AbortSignal.timeout(timeoutMs),
    headers: {
      'Content-Type': 'application/json',
      Origin: new URL(target.managementUrl).origin,
      Authorization: `Basic ${Buffer.from(`${target.user}:${target.password}`).toString('base64')}`,
    },
    body: JSON.stringify(body),
  });
}

/** The request's value; throws naming the request and the broker's error when Jolokia or the broker refuses. */
export async function jolokia(target: JolokiaTarget, request: JolokiaRequest, timeoutMs = 10_000): Promise<unknown> {
  const response = await post(target, request, timeoutMs);
  const what = `Jolokia ${request.type} ${'operation' in request ? request.operation : request.mbean}`;
  if (response.status !== 200) throw new Error(`${what} on ${target.managementUrl}: HTTP ${response.status}`);
  const reply = (await response.json()) as { status: number; value?: unknown; error?: string };
  if (reply.status !== 200) throw new Error(`${what} on ${target.managementUrl}: ${reply.error ?? reply.status}`);
  return reply.value;
}

export const jolokiaRead = (target: JolokiaTarget, mbean: string, attribute?: string | readonly string[]) =>
  jolokia(target, { type: 'read', mbean, ...(attribute === undefined ? {} : { attribute }) });

export const jolokiaExec = (target: JolokiaTarget, mbean: string, operation: string, args: readonly unknown[]) =>
  jolokia(target, { type: 'exec', mbean, operation, arguments: args });

/** Many requests in one POST (Jolokia's bulk form); throws on the first one the broker refused. */
export async function jolokiaBulk(
  target: JolokiaTarget,
  requests: readonly JolokiaRequest[],
  timeoutMs = 300_000,
): Promise<void> {
  const response = await post(target, requests, timeoutMs);
  if (response.status !== 200) throw new Error(`Jolokia bulk on ${target.managementUrl}: HTTP ${response.status}`);
  const replies = (await response.json()) as Array<{ status: number; error?: string }>;
  const refused = replies.find((reply) => reply.status !== 200);
  if (refused) throw new Error(`a bulk Jolokia request was refused: ${refused.error ?? String(refused.status)}`);
}
