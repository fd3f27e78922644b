// The REST edge's guards for a route a module serves outside its procedures (a plugin's gateway): the module's
// feature gate, the URL and body checks, the caller resolved — then the module's handler, whose ProblemError becomes
// problem+json here exactly as on the REST edge. The route file under src/app names the module; this file names none.
import { CLUSTER_NOT_FOUND, type TrpcContext } from '@/modules/kernel/access/index.ts';
import {
  createRequestContext,
  featureDisabledProblem,
  internalErrorProblem,
  type Problem,
  ProblemError,
  problemResponse,
  type RequestContext,
  serviceUnavailableProblem,
} from '@/modules/kernel/core/index.ts';
import { logger, withLogContext } from '@/base/log/log.ts';
import { getWebRuntime, type WebRuntime } from '../runtime/web-runtime.ts';
import { createTrpcContext } from './context.ts';
import { governedProblemResponse } from './governed-problem.ts';
import { bodyLimit, checkUrl, guardBody } from './request-guard.ts';

export type GuardedHandler = (request: Request, context: TrpcContext) => Promise<Response>;
const log = logger('api');

/** `getRuntime` is the web process's own unless a test serves the route from a runtime it opened. */
export function guardedRoute(
  handler: GuardedHandler,
  getRuntime: () => Promise<WebRuntime> = getWebRuntime,
): (request: Request) => Promise<Response> {
  return (request) => {
    const context = createRequestContext(request.headers);
    return withLogContext({ requestId: context.requestId }, () => answer(request, context));
  };

  async function answer(request: Request, context: RequestContext): Promise<Response> {
    const url = new URL(request.url);
    let runtime: WebRuntime | undefined;
    const refuse = async (problem: Problem) => {
      // The cluster guard's 404 must not echo the cluster id, and the path would.
      const answer = {
        ...problem,
        ...(problem.type === CLUSTER_NOT_FOUND.type ? {} : { instance: url.pathname }),
        requestId: context.requestId,
      };
      return runtime ? governedProblemResponse(runtime, answer) : problemResponse(answer);
    };
    try {
      runtime = await getRuntime();
      const owner = runtime.registry.ownerOfPath(url.pathname);
      if (owner && !owner.enabled) return await refuse(featureDisabledProblem(owner));
      const badUrl = checkUrl(url);
      if (badUrl) return await refuse(badUrl);
      // Resolving the caller reads the database: down or restarting, that is a 503 to retry, as on the other edges.
      const trpcContext = await createTrpcContext(runtime, request, context).catch((error: unknown) => {
        log.error({ err: error }, 'cannot resolve the caller');
        throw new ProblemError(serviceUnavailableProblem(context.requestId));
      });
      if (trpcContext.refusal) return await refuse(trpcContext.refusal);
      const guarded = await guardBody(request, bodyLimit(runtime, trpcContext));
      if ('problem' in guarded) return await refuse(guarded.problem);
      return await handler(guarded.request, trpcContext);
    } catch (error) {
      if (error instanceof ProblemError) return await refuse(error.problem);
      log.error({ err: error, method: request.method, path: url.pathname }, 'request failed');
      return problemResponse(
        error instanceof Error && error.message.includes('runtime')
          ? serviceUnavailableProblem(context.requestId)
          : internalErrorProblem(context.requestId),
      );
    }
  }
}
