// RFC 9457 problem details: the one error format of every REST response. Types are short slugs (relative URI
// references) named by the spec, e.g. `feature-disabled`; docs/api.md ("Errors") lists them.
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface FieldError {
  /** Dotted path of the offending input field; empty for the input as a whole. */
  readonly field: string;
  readonly message: string;
}

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly requestId?: string;
  readonly errors?: readonly FieldError[];
  readonly [extension: string]: unknown;
}

/** Thrown by services to answer with a specific problem; anything else thrown becomes a 500 without details. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
    this.name = 'ProblemError';
  }
}

export function problemResponse(problem: Problem, headers: HeadersInit = {}): Response {
  const responseHeaders = new Headers(headers);
  responseHeaders.set('Content-Type', PROBLEM_CONTENT_TYPE);
  responseHeaders.set('Cache-Control', 'no-store');
  if (problem.requestId) responseHeaders.set('X-Request-Id', problem.requestId);
  // A refusal that says when to come back (a sign-in lock, a busy server) says it the standard way too.
  if (typeof problem.retryAfterSeconds === 'number') {
    responseHeaders.set('Retry-After', String(Math.max(1, Math.ceil(problem.retryAfterSeconds))));
  }
  return new Response(JSON.stringify(problem), { status: problem.status, headers: responseHeaders });
}

export const NO_ROUTE = 'No API route matches this method and path.';

export function malformedRequestProblem(): Problem {
  return {
    type: 'malformed-request',
    title: 'Malformed request',
    status: 400,
    detail: 'The request body is not valid JSON.',
  };
}

export function notFoundProblem(detail: string): Problem {
  return { type: 'not-found', title: 'Not found', status: 404, detail };
}

export function validationProblem(errors: readonly FieldError[], detail?: string): Problem {
  const fields = errors.map((error) => error.field || '(input)').join(', ');
  return {
    type: 'validation-failed',
    title: 'The request is not valid',
    status: 400,
    detail: detail ?? `Check these fields: ${fields}`,
    errors,
  };
}

export function internalErrorProblem(requestId: string): Problem {
  return {
    type: 'internal-error',
    title: 'Internal error',
    status: 500,
    detail: `Something went wrong on the server. Quote request id ${requestId} when reporting it.`,
    requestId,
  };
}

/** The database did not answer in time (a full pool under load, a restart): nothing was done, try again. */
export function databaseBusyProblem(requestId: string): Problem {
  return {
    type: 'service-unavailable',
    title: 'Service unavailable',
    status: 503,
    detail: 'Flotilla’s database did not answer in time (busy or restarting); nothing was done. Try again shortly.',
    requestId,
  };
}

/** PostgreSQL is out of disk space (SQLSTATE 53100): the write was not made, reads still work, an operator must act. */
export function storageFullProblem(requestId: string): Problem {
  return {
    type: 'storage-full',
    title: 'Service unavailable',
    status: 503,
    detail:
      'Flotilla’s database has no disk space left, so nothing was changed; reading still works. Try again once an operator has freed space.',
    retryAfterSeconds: 30,
    requestId,
  };
}

export function serviceUnavailableProblem(requestId: string): Problem {
  return {
    type: 'service-unavailable',
    title: 'Service unavailable',
    status: 503,
    detail: 'Flotilla cannot reach its database right now; try again shortly.',
    requestId,
  };
}
