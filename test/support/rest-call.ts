// One JSON call to the REST API of a runtime opened in the test's process, signed in: its status and parsed body.
import type { AuthHeaders } from './sign-in.ts';

export async function callRest(
  rest: (request: Request) => Promise<Response>,
  auth: AuthHeaders,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await rest(
    new Request(`http://127.0.0.1/api/v1${path}`, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}
