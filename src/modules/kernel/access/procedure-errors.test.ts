// What a caller sees when a procedure throws: a database that did not answer in time is 503 (try again), anything
// unexpected is 500 with nothing of the error in it.
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { problemFromError } from './procedure.ts';

const thrown = (cause: unknown) => new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause });

describe('a procedure’s unexpected error as a problem', () => {
  it('answers 503 service-unavailable when the database did not answer in time', () => {
    const busy = Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), {
      code: 'P2028',
    });
    expect(problemFromError(thrown(busy), 'req-1')).toMatchObject({
      type: 'service-unavailable',
      status: 503,
      requestId: 'req-1',
    });
  });

  it('answers 500 internal-error for anything else, quoting only the request id', () => {
    const problem = problemFromError(thrown(new TypeError('secret detail at /src/x.ts')), 'req-2');
    expect(problem).toMatchObject({ type: 'internal-error', status: 500 });
    expect(JSON.stringify(problem)).not.toContain('secret detail');
  });
});
