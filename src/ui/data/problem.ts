// Reads the RFC 9457 problem out of whatever a query or mutation failed with: a tRPC error carries it in
// `error.data.problem`, a REST call (ProblemResponseError) in its body; anything else becomes a plain problem.

export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status?: number;
  readonly detail?: string;
  readonly requestId?: string;
  readonly rule?: string;
  readonly property?: string;
  readonly errors?: readonly { readonly field: string; readonly message: string }[];
}

/** Thrown by the console's plain REST reads when the answer is a problem. */
class ProblemResponseError extends Error {
  constructor(readonly problem: ProblemDetails) {
    super(problem.detail ?? problem.title);
  }
}

const isProblem = (value: unknown): value is ProblemDetails =>
  typeof value === 'object' && value !== null && typeof (value as { title?: unknown }).title === 'string';

export function problemOf(error: unknown): ProblemDetails {
  if (error instanceof ProblemResponseError) return error.problem;
  const data = (error as { data?: { problem?: unknown } } | null)?.data;
  if (isProblem(data?.problem)) return data.problem;
  const message = error instanceof Error ? error.message : String(error);
  return { type: 'client-error', title: 'The request failed', detail: message };
}

/** Reads a REST document; a problem answer becomes a ProblemResponseError. */
export async function fetchJson<Body>(url: string): Promise<Body> {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    throw new ProblemResponseError(
      isProblem(body) ? body : { type: 'http-error', title: `HTTP ${response.status}`, status: response.status },
    );
  }
  return body as Body;
}
