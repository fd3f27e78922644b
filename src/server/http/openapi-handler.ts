// The procedures behind /api/v1, reached through trpc-to-openapi's node handler, built once. The library's fetch
// adapter (createOpenApiFetchHandler) builds that handler again on every request: its map of procedures everywhere,
// and outside production a whole OpenAPI document to validate the router, about 100 ms of every REST call on two
// cores (found by the REST fuzzing, issue 34). This is that adapter with the handler kept: each request carries its
// own context and error hook, looked up by the request it was handed with.
import { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { TrpcContext } from '@/modules/kernel/access/index.ts';
import { appRouter } from '@/installation/app-router.ts';

export interface OpenApiCall {
  readonly context: TrpcContext;
  readonly onError: (error: TRPCError) => void;
}

type NodeHandler = (request: Request, response: ResponseShim) => Promise<void>;
interface ResponseShim {
  setHeader(key: string, value: string | readonly string[]): void;
  statusCode: number;
  end(body?: string): void;
}

const calls = new WeakMap<object, OpenApiCall>();
let handler: NodeHandler | undefined;

function callOf(request: unknown): OpenApiCall {
  const call = calls.get(request as object);
  if (!call) throw new Error('an /api/v1 request reached the procedures without its call');
  return call;
}

function nodeHandler(): NodeHandler {
  handler ??= createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: ({ req }: { req: unknown }) => Promise.resolve(callOf(req).context),
    onError: ({ error, req }: { error: TRPCError; req: unknown }) => callOf(req).onError(error),
  }) as unknown as NodeHandler;
  return handler;
}

/** The body as the library's adapter reads it: JSON when said so, else the raw stream (refused later). */
async function readBody(request: Request): Promise<{ ok: true; data: unknown } | { ok: false; cause: unknown }> {
  try {
    const type = request.headers.get('content-type');
    if (type?.includes('application/json')) return { ok: true, data: JSON.parse(await request.text()) };
    if (type?.includes('application/x-www-form-urlencoded')) {
      const params = new URLSearchParams(await request.text());
      return { ok: true, data: Object.fromEntries([...params.keys()].map((key) => [key, params.getAll(key)])) };
    }
    return { ok: true, data: request.body };
  } catch (cause) {
    return { ok: false, cause };
  }
}

/** One REST request through the procedures: `endpoint` is the prefix the procedures' paths are relative to. */
export async function callProcedures(request: Request, endpoint: string, call: OpenApiCall): Promise<Response> {
  const url = new URL(request.url.replace(endpoint, '')).toString();
  const body = await readBody(request);
  const proxy = new Proxy(request, {
    get: (target, property) => {
      if (property === 'url') return url;
      if (property === 'body') {
        if (!body.ok)
          throw new TRPCError({ code: 'PARSE_ERROR', message: 'Failed to parse request body', cause: body.cause });
        return body.data;
      }
      return (target as unknown as Record<PropertyKey, unknown>)[property];
    },
  });
  calls.set(proxy, call);
  const headers = new Headers();
  let status = 200;
  return new Promise((resolve, reject) => {
    const response: ResponseShim = {
      setHeader: (key, value) => {
        if (typeof value === 'string') headers.set(key, value);
        else for (const one of value) headers.append(key, one);
      },
      get statusCode() {
        return status;
      },
      set statusCode(code: number) {
        status = code;
      },
      end: (text) => resolve(new Response(text, { headers, status })),
    };
    nodeHandler()(proxy, response).catch(reject);
  });
}
