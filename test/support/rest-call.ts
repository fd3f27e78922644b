// JSON calls to Flotilla's REST API from tests, signed in: through the REST handler of a runtime opened in the test's
// process, or over HTTP to a started app. Both answer the same shape: the status, the parsed body and the headers.
import type { AuthHeaders } from './sign-in.ts';

export type Send = (request: Request) => Promise<Response>;

export interface RestAnswer<T> {
  readonly status: number;
  /** The parsed body; `{}` when the answer has none. */
  readonly json: T;
  readonly headers: Headers;
}

/** One call of a client: the caller names the answer's shape. */
export type RestCall = <T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Readonly<Record<string, string>>,
) => Promise<RestAnswer<T>>;

/** Where an in-process handler is called: any origin will do, the handler routes by path. */
const IN_PROCESS_API = 'http://127.0.0.1/api/v1';

export async function callRest<T = Record<string, unknown>>(
  send: Send,
  auth: AuthHeaders | Readonly<Record<string, string>>,
  method: string,
  path: string,
  body?: unknown,
  { baseUrl = IN_PROCESS_API, headers = {} }: { baseUrl?: string; headers?: Readonly<Record<string, string>> } = {},
): Promise<RestAnswer<T>> {
  const response = await send(
    new Request(`${baseUrl}${path}`, {
      method,
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as T, headers: response.headers };
}

/** Calls of `/api/v1` paths through a runtime's REST handler, in the test's process. */
export function restClient(rest: Send, auth: AuthHeaders): RestCall {
  return (method, path, body, headers) => callRest(rest, auth, method, path, body, { headers });
}

/** How long a call over HTTP may take before the test hears why. */
const HTTP_TIMEOUT_MS = 15_000;

/** Calls of paths under `baseUrl` (e.g. `${app.baseUrl}/api/v1`) of an app started by the test, over HTTP. */
export function httpClient(baseUrl: string, auth: AuthHeaders | Readonly<Record<string, string>>): RestCall {
  const send: Send = (request) => fetch(request, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  return (method, path, body, headers) => callRest(send, auth, method, path, body, { baseUrl, headers });
}

/** The answer's body when it is 200, else an error naming the call: for a test's own set-up steps. */
export async function okBody<T>(call: RestCall, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await call<T>(method, path, body);
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json;
}
