// How a procedure's refusal reaches an agent. The procedures answer problems (the REST edge turns the same ones into
// problem+json); here they become the spec's MCP errors: a bad input is -32602, anything else a result with
// isError naming the fix. An unknown or ungranted cluster says so without the id; a missing permission names it.
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { type Problem, ProblemError } from '@/modules/kernel/core/index.ts';
import { invalidParams, type McpContext, ToolFailure } from './tool-kit.ts';

const NO_SUCH_CLUSTER =
  'There is no such cluster, or this API key has no grant on it. cluster_health without clusterId lists the ' +
  'clusters the key can see.';

function problemOf(error: unknown): Problem | ZodError | undefined {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof ProblemError) return cause.problem;
  if (cause instanceof ZodError) return cause;
  return undefined;
}

/** What the agent is told for a problem; throws -32602 for input the procedure refused as malformed. */
function failureFor(problem: Problem): Error {
  const detail = problem.detail ?? problem.title;
  switch (problem.type) {
    case 'cluster-not-found':
      return new ToolFailure(NO_SUCH_CLUSTER);
    case 'forbidden':
      return new ToolFailure(
        `Permission missing: ${typeof problem.permission === 'string' ? problem.permission : 'see below'}. ${detail} Ask an admin to grant it to the ` +
          'key’s owner.',
      );
    case 'bulk-cap-exceeded':
      return new ToolFailure(
        `Refused: ${String(problem.affectedCount)} messages is over the bulk cap ${String(problem.cap)} ` +
          '(safety.bulk-cap). Nothing was done. To go ahead repeat with override=true (confirm does not count as one).',
      );
    case 'validation-failed':
    case 'malformed-request': {
      const errors = Array.isArray(problem.errors)
        ? (problem.errors as { field: string; message: string }[]).map((e) => `${e.field}: ${e.message}`).join('; ')
        : '';
      return invalidParams(`Invalid arguments. ${errors || detail}`);
    }
    default:
      // A 400 is the procedure refusing the input itself (a value outside a setting's rule, …): a malformed call.
      if (problem.status === 400) return invalidParams(`${problem.title}: ${detail}`);
      return new ToolFailure(`${problem.title}: ${detail}`);
  }
}

/** Runs a procedure as the caller; its refusals become MCP errors. */
export async function callProcedure(context: McpContext, path: string, input?: unknown): Promise<unknown> {
  try {
    return await context.call(path, input);
  } catch (error) {
    const problem = problemOf(error);
    if (problem instanceof ZodError) {
      const errors = problem.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      throw invalidParams(`Invalid arguments. ${errors}`);
    }
    if (problem) throw failureFor(problem);
    throw error;
  }
}
