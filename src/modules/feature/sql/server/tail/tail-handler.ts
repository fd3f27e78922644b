// GET /api/v1/clusters/{clusterId}/sql/tail?sql=…&source=index|live: the tail's HTTP edge. The roof's route file
// hands it the runtime and the request-filter chain (the same principal and grants as every API), so the caller needs
// sql:query on the cluster; an unknown and an unauthorised cluster answer the same 404. A bad query is a problem+json
// 400 pointing at its token before any stream opens.
import {
  checkAccess,
  CLUSTER_NOT_FOUND,
  guardCluster,
  recordDenial,
  type TrpcContext,
} from '@/modules/kernel/access/index.ts';
import {
  ProblemError,
  problemResponse,
  serviceUnavailableProblem,
  validationProblem,
} from '@/modules/kernel/core/index.ts';
import { parseQuery } from '../query/parse.ts';
import { boundsOf, indexNotices, type QueryRuntime } from '../run-query.ts';
import { SQL_MAX_LENGTH } from '../sql.schema.ts';
import { SQL_SETTINGS } from '../sql.settings.ts';
import { openTail, type TailRuntime } from './tail-stream.ts';

type Runtime = TailRuntime & QueryRuntime & TrpcContext['runtime'];

function one(url: URL, name: string): string | undefined {
  const values = url.searchParams.getAll(name);
  if (values.length > 1)
    throw new ProblemError(validationProblem([{ field: name, message: 'is given more than once' }]));
  return values[0];
}

function sequenceOf(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || text === '') return undefined;
  if (!/^\d{1,18}$/.test(text))
    throw new ProblemError(validationProblem([{ field: 'Last-Event-ID', message: 'must be a row sequence number' }]));
  return Number(text);
}

export function createTailHandler<R extends Runtime>(
  getRuntime: () => Promise<R>,
  contextOf: (runtime: R, request: Request) => Promise<TrpcContext>,
): (request: Request, route: { params: Promise<{ clusterId: string }> }) => Promise<Response> {
  return async (request, route) => {
    const runtime = await getRuntime().catch(() => undefined);
    if (!runtime) return problemResponse(serviceUnavailableProblem(''));
    const context = await contextOf(runtime, request);
    const url = new URL(request.url);
    try {
      await checkAccess({
        access: 'authenticated',
        isMutation: false,
        principal: context.principal,
        headers: request.headers,
        allowedBeforePasswordChange: false,
        globalPermissions: context.globalPermissions,
      });
      const { clusterId } = await route.params;
      const guarded = await guardCluster({ ...runtime, grants: context.grants, clusterId });
      if (!guarded.permissions.has('sql:query'))
        throw new ProblemError({
          type: 'forbidden',
          title: 'Permission missing',
          status: 403,
          detail: 'Tailing messages needs the permission sql:query on this cluster.',
          permission: 'sql:query',
        });
      const sql = one(url, 'sql') ?? '';
      if (sql.length === 0 || sql.length > SQL_MAX_LENGTH)
        throw new ProblemError(
          validationProblem([{ field: 'sql', message: `must be 1 to ${String(SQL_MAX_LENGTH)} characters` }]),
        );
      const source = one(url, 'source') ?? 'index';
      if (source !== 'index' && source !== 'live')
        throw new ProblemError(validationProblem([{ field: 'source', message: 'must be index or live' }]));
      // A tail is masked: each clear answer is audited as VIEW_CLEAR, which a stream of rows cannot be row by row.
      if (url.searchParams.has('clear'))
        throw new ProblemError(
          validationProblem([
            {
              field: 'clear',
              message: 'a tail shows the masked form; run the query with clear=true to see values in clear (audited)',
            },
          ]),
        );
      const plan = parseQuery(sql, new Date());
      const lastEventId = sequenceOf(request.headers.get('last-event-id') ?? one(url, 'lastEventId'));
      const sampleIntervalMs = runtime.settings.duration(SQL_SETTINGS.sampleInterval);
      const notices =
        source === 'index'
          ? await indexNotices(runtime, clusterId, plan)
          : [
              `Sampled: the brokers are read every ${String(sampleIntervalMs / 1000)} s; a queue that drains faster than that is invisible to this tail.`,
            ];
      return openTail(
        runtime,
        { clusterId, plan, source, clear: false, bounds: boundsOf(runtime), lastEventId, notices, sampleIntervalMs },
        request.signal,
      );
    } catch (error) {
      await recordDenial(context, 'sql.tail', error);
      if (error instanceof ProblemError) {
        // The cluster guard's 404 must not echo the cluster id, and the path would; every answer names its request.
        const instance = error.problem.type === CLUSTER_NOT_FOUND.type ? {} : { instance: url.pathname };
        return problemResponse({ ...error.problem, ...instance, requestId: context.request.requestId });
      }
      throw error;
    }
  };
}
