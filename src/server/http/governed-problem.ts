// A refusal passes the content policy before it leaves, never in clear. Its `instance` is the path as sent, and its
// detail, field errors and extensions may quote what the caller typed (a queue name, a setting key): a card number
// typed into a path came back readable in the caller's own 4xx (issue 34's fuzzing; 0 unmasked in any answer without
// clear access). Masked values hold nothing the detectors find again, so a refusal a service governed is unchanged.
import { governFields } from '@/modules/platform/governance/index.ts';
import { type Problem, problemResponse } from '@/modules/kernel/core/index.ts';
import { logger } from '@/base/log/log.ts';
import { decodeSegment } from '@/base/path-segment.ts';

type GovernanceRuntime = Parameters<typeof governFields>[0];
const log = logger('api');

/** Ours, never input: left as they are (a detector may take a run of a request id's digits for a phone number). */
const OURS = new Set(['type', 'title', 'status', 'requestId', 'retryAfterSeconds']);

const withoutInstance = (problem: Problem) =>
  Object.fromEntries(Object.entries(problem).filter(([name]) => name !== 'instance')) as Problem;

/** The refusal as it may leave: every field but ours through the content policy (the tRPC edge's too). */
export async function governedProblem(runtime: GovernanceRuntime, problem: Problem): Promise<Problem> {
  // Our own 500, 503 and 504 quote no input, and are answered when the database (which holds the policy) may be
  // down: they go without the path rather than wait on it. A 502 quotes the broker, which may name what was typed.
  if (problem.status >= 500 && problem.status !== 502) return withoutInstance(problem);
  const quoting = Object.keys(problem).filter((name) => !OURS.has(name));
  // Decoded as typed: percent-encoding glues `%20` to the digits after it, and a detector would not see the number.
  const typed = typeof problem.instance === 'string' ? decodeSegment(problem.instance) : undefined;
  try {
    const { rows, governed } = await governFields<Problem>(
      runtime,
      [{ ...problem, ...(typed === undefined ? {} : { instance: typed }) }],
      quoting,
      { clear: false },
    );
    const [shown] = rows;
    if (!shown || governed[0]?.redactions.length === 0) return problem;
    // A masked path is a URI reference again; an unmasked one is the path exactly as it came.
    const maskedPath = shown.instance !== typed && typeof shown.instance === 'string';
    return { ...shown, instance: maskedPath ? encodeURI(shown.instance) : problem.instance };
  } catch (error) {
    // The policy unreadable (the database down: the refusal is then most likely our own 503): the one field that is
    // always the caller's input goes; the rest is ours or was checked by the service that refused.
    log.warn({ err: error }, 'the content policy could not be read for a refusal: it goes without its instance');
    return withoutInstance(problem);
  }
}

export async function governedProblemResponse(runtime: GovernanceRuntime, problem: Problem): Promise<Response> {
  return problemResponse(await governedProblem(runtime, problem));
}
