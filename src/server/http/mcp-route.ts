// POST /mcp, the second inbound edge (spec, MCP surface): the same request filter chain as REST (request id,
// source address, bearer principal, body limit and character checks), then the mcp module's server with a
// server-side caller of the application router as this principal, so every tool runs the REST procedures with
// the REST permissions, dry-run rules and audit (the token's name as actor). Only API tokens are heard: a browser
// session cookie is no credential here. With the mcp module off, /mcp does not exist (404).
import {
  createRequestContext,
  featureDisabledProblem,
  problemResponse,
  type RequestContext,
  serviceUnavailableProblem,
} from '@/modules/kernel/core/index.ts';
import { handleMcpRequest, type ProcedureCall } from '@/modules/platform/mcp/index.ts';
import { appRouter } from '@/installation/app-router.ts';
import { logger, withLogContext } from '@/base/log/log.ts';
import { getWebRuntime, type WebRuntime } from '../runtime/web-runtime.ts';
import { createTrpcContext } from './context.ts';
import { bodyLimit, checkUrl, guardBody } from './request-guard.ts';

/** A procedure of the app router by its dotted path, called through tRPC's server-side caller. */
function procedureCall(caller: object): ProcedureCall {
  return (path, input) => {
    let target: unknown = caller;
    for (const part of path.split('.')) target = (target as Record<string, unknown>)[part];
    if (typeof target !== 'function') throw new Error(`no procedure ${path}`);
    return (target as (input: unknown) => Promise<unknown>)(input);
  };
}

export function createMcpHandler(getRuntime: () => Promise<WebRuntime>): (request: Request) => Promise<Response> {
  return (request) => handleMcp(request, getRuntime);
}

export const handleMcpRoute = createMcpHandler(getWebRuntime);
const log = logger('mcp');

function handleMcp(request: Request, getRuntime: () => Promise<WebRuntime>): Promise<Response> {
  const base = createRequestContext(request.headers);
  return withLogContext({ requestId: base.requestId }, () => answerMcp(request, getRuntime, base));
}

async function answerMcp(
  request: Request,
  getRuntime: () => Promise<WebRuntime>,
  base: RequestContext,
): Promise<Response> {
  const instance = '/mcp';
  let runtime: WebRuntime;
  try {
    runtime = await getRuntime();
  } catch (error) {
    log.error({ err: error }, 'runtime unavailable');
    return problemResponse(serviceUnavailableProblem(base.requestId));
  }
  const mcp = runtime.registry.get('mcp');
  if (!mcp?.enabled) {
    return problemResponse({
      ...(mcp ? featureDisabledProblem(mcp) : { type: 'not-found', title: 'Not found', status: 404 }),
      instance,
      requestId: base.requestId,
    });
  }
  if (request.method !== 'POST') {
    return problemResponse(
      {
        type: 'method-not-allowed',
        title: 'Method not allowed',
        status: 405,
        detail: 'This MCP server is stateless: send JSON-RPC messages with POST (no GET stream, no sessions).',
        instance,
        requestId: base.requestId,
      },
      { Allow: 'POST' },
    );
  }
  const badUrl = checkUrl(new URL(request.url));
  if (badUrl) return problemResponse({ ...badUrl, instance, requestId: base.requestId });
  const context = await createTrpcContext(runtime, request, base);
  if (context.refusal) return problemResponse({ ...context.refusal, instance, requestId: base.requestId });
  if (context.principal?.via !== 'bearer') {
    return problemResponse(
      {
        type: 'unauthenticated',
        title: 'API token required',
        status: 401,
        detail: 'Send an API token as "Authorization: Bearer as_…" (create one under Account → API tokens).',
        instance,
        requestId: base.requestId,
      },
      { 'WWW-Authenticate': 'Bearer realm="flotilla-mcp"' },
    );
  }
  const guarded = await guardBody(request, bodyLimit(runtime, context));
  if ('problem' in guarded) return problemResponse({ ...guarded.problem, instance, requestId: base.requestId });
  const response = await handleMcpRequest(guarded.request, {
    registry: runtime.registry,
    request: context.request,
    runtime,
    call: procedureCall(appRouter.createCaller(context)),
    grants: context.grants,
  });
  const headers = new Headers(response.headers);
  headers.set('X-Request-Id', base.requestId);
  headers.set('Cache-Control', 'no-store');
  return new Response(response.body, { status: response.status, headers });
}
