// The plugin gateway: /api/v1/p/<id>/** and /api/v1/clusters/{clusterId}/p/<id>/**. A request reaches a plugin's
// process only after the host has done what it does for its own endpoints — the caller authenticated (CSRF for a
// cookie-made change), the route declared in the manifest, the plugin's permission held (by tier, or carried by a role),
// and for a cluster route the cluster guard (unknown and not visible look the same). A change through a plugin route
// is audited like any other. The plugin's answer is passed on as JSON with only its status and x-plugin-* headers.
import {
  checkAccess,
  clusterPermissions,
  globalPermissions,
  guardCluster,
  type TrpcContext,
} from '@/modules/kernel/access/index.ts';
import { openAudit } from '@/modules/kernel/audit/index.ts';
import { notFoundProblem, ProblemError, type Problem } from '@/modules/kernel/core/index.ts';
import { permissionCatalogueNow, withRuntimePermissions, type BuiltInRole } from '@/modules/kernel/plugin/index.ts';
import { PluginCallError } from '../../runtime/plugin-process.ts';
import type { CallContext } from '../host/plugin-manager.ts';
import { pluginsOf } from '../process-start.ts';

const PLUGIN_PATH = /^\/api\/v1\/(?:clusters\/([^/]+)\/)?p\/([a-z][a-z0-9-]{2,31})(\/.*)?$/;
const NO_ROUTE = 'No plugin route matches this method and path.';

function routeParams(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    const value = got[index] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return undefined;
  }
  return params;
}

const problem = (status: number, type: string, title: string, detail: string): Problem => ({
  type,
  title,
  status,
  detail,
});

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProblemError(problem(400, 'malformed-request', 'Malformed request', 'The body is not JSON.'));
  }
}

/** Answers a gateway request; throws ProblemError for every refusal (the REST edge turns it into problem+json). */
export async function handlePluginGateway(request: Request, context: TrpcContext): Promise<Response> {
  const url = new URL(request.url);
  const [, clusterId, pluginId = '', rest = '/'] = PLUGIN_PATH.exec(url.pathname) ?? [];
  const isMutation = request.method !== 'GET' && request.method !== 'HEAD';
  await checkAccess({
    access: 'authenticated',
    isMutation,
    principal: context.principal,
    headers: request.headers,
    allowedBeforePasswordChange: false,
    globalPermissions: context.globalPermissions,
  });
  const { runtime } = context;
  const manager = pluginsOf(runtime.bus)?.manager;
  const plugin = manager?.get(pluginId);
  if (!manager || !plugin) {
    if (manager?.inMaintenance(pluginId))
      throw new ProblemError(
        problem(
          503,
          'plugin-maintenance',
          'Plugin briefly unavailable',
          'The plugin is switching versions; try again in a few seconds.',
        ),
      );
    throw new ProblemError(notFoundProblem(NO_ROUTE));
  }
  const route = plugin.manifest.routes.find(
    (candidate) =>
      candidate.method === request.method &&
      candidate.cluster === (clusterId !== undefined) &&
      routeParams(candidate.path, rest) !== undefined,
  );
  if (!route) throw new ProblemError(notFoundProblem(NO_ROUTE));
  const grants = await context.grants();
  let held = globalPermissions(grants);
  if (clusterId !== undefined) {
    const { cluster } = await guardCluster({ ...runtime, grants: context.grants, clusterId });
    held = clusterPermissions(grants, cluster);
  }
  const declared = plugin.manifest.permissions.find((permission) => permission.id === route.permission);
  const tier: BuiltInRole = declared?.includedIn ?? 'admin';
  // Held by tier, or carried alone by a custom role granted here (plugin.runtime-permissions: a route's permission is
  // always one its running plugin declares, so the catalogue has it with its tier).
  const catalogue = await permissionCatalogueNow(runtime.registry, runtime.bus);
  if (!withRuntimePermissions(held, catalogue).has(route.permission))
    throw new ProblemError({
      ...problem(
        403,
        'forbidden',
        'Permission missing',
        `This needs the permission ${route.permission} (held by the ${tier} tier${clusterId ? ' on this cluster' : ''}).`,
      ),
      permission: route.permission,
    });
  const body = isMutation ? await readJson(request) : undefined;
  const actor = context.request.actor;
  const audit = isMutation
    ? await openAudit(runtime.prisma, context.request, {
        action: `plugin.${pluginId}.request`,
        target: `${request.method} ${rest}`,
        parameters: { clusterId: clusterId ?? null },
      })
    : undefined;
  try {
    const answer = await plugin.process.handleRoute(
      {
        method: request.method,
        path: rest,
        params: routeParams(route.path, rest) ?? {},
        query: Object.fromEntries(url.searchParams),
        body,
        user: { id: actor.userId ?? actor.name, name: actor.name, permissions: [route.permission] },
        ...(clusterId ? { clusterId } : {}),
      },
      { grants } satisfies CallContext,
    );
    await audit?.finish({ outcome: answer.status < 400 ? 'SUCCEEDED' : 'FAILED' });
    const headers = new Headers({ 'Cache-Control': 'no-store', 'X-Request-Id': context.request.requestId });
    for (const [name, value] of Object.entries(answer.headers))
      if (/^x-plugin-[a-z0-9-]+$/i.test(name)) headers.set(name, value);
    return Response.json(answer.body ?? null, { status: answer.status, headers });
  } catch (error) {
    await audit?.finish({ outcome: 'FAILED', error: (error as Error).message }).catch(() => undefined);
    if (error instanceof PluginCallError) {
      const timedOut = error.code === 'timeout';
      throw new ProblemError(
        problem(
          timedOut ? 504 : 502,
          'plugin-failed',
          timedOut ? 'The plugin did not answer in time' : 'The plugin failed',
          `${pluginId}: ${error.message}`,
        ),
      );
    }
    throw error;
  }
}
