// The MCP resources: flotilla://clusters and flotilla://permissions, and per cluster cluster://{id}/topology and
// cluster://{id}/capabilities. Each reads through the same procedures as REST, as the caller; an unknown or
// ungranted cluster reads as "no such cluster or no grant", without the id.
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { governedOutput } from './governed-output.ts';
import { callProcedure } from './procedure-errors.ts';
import { asRow, asRows, pick } from './project.ts';
import { invalidParams, type McpContext, ToolFailure } from './tool-kit.ts';

export const RESOURCES: Resource[] = [
  {
    uri: 'flotilla://clusters',
    name: 'clusters',
    description: 'The clusters this key can see: id, name, environment, node counts',
    mimeType: 'application/json',
  },
  {
    uri: 'flotilla://permissions',
    name: 'permissions',
    description: 'Who this key acts as and the permissions it holds, globally and per scope',
    mimeType: 'application/json',
  },
];

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'cluster://{id}/topology',
    name: 'topology',
    description: 'A cluster’s nodes: logical node, role, serving, HA state, last error',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'cluster://{id}/capabilities',
    name: 'capabilities',
    description: 'What Flotilla can do on a cluster (management read/write, notifications, message IO) and why not',
    mimeType: 'application/json',
  },
];

const CLUSTER_URI = /^cluster:\/\/([^/]+)\/(topology|capabilities)$/;

async function contentOf(uri: string, context: McpContext): Promise<unknown> {
  if (uri === 'flotilla://clusters') {
    const list = asRow(await callProcedure(context, 'clusters.list', { pageSize: 500 }));
    return asRows(list.items).map((cluster) => ({
      ...pick(cluster, ['id', 'name', 'nodeCount', 'logicalNodeCount', 'failingNodeCount']),
      environment: asRow(cluster.environment).name ?? null,
    }));
  }
  if (uri === 'flotilla://permissions') {
    return pick(asRow(await callProcedure(context, 'security.account.me')), ['actor', 'globalPermissions', 'grants']);
  }
  const match = CLUSTER_URI.exec(uri);
  if (!match) {
    throw invalidParams(
      'Unknown resource. Resources: flotilla://clusters, flotilla://permissions, cluster://{id}/topology, cluster://{id}/capabilities.',
    );
  }
  const clusterId = decodeURIComponent(match[1] ?? '');
  if (match[2] === 'topology') {
    const nodes = asRow(await callProcedure(context, 'clusters.nodes', { clusterId }));
    return asRows(nodes.items).map((node) =>
      pick(node, [
        'id',
        'brokerName',
        'logicalNode',
        'role',
        'serving',
        'active',
        'backup',
        'replicaSync',
        'lastError',
      ]),
    );
  }
  const capabilities = asRow(await callProcedure(context, 'clusters.capabilities', { clusterId }));
  return asRows(capabilities.items).map((item) => pick(item, ['capability', 'value', 'detail', 'snippet']));
}

/** resources/read; a refusal (no such cluster, no grant) is a JSON-RPC error whose message names the fix. */
export async function readResource(uri: string, context: McpContext): Promise<ReadResourceResult> {
  try {
    const content = await governedOutput(context, await contentOf(uri, context));
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(content) }] };
  } catch (error) {
    if (error instanceof ToolFailure) throw invalidParams(error.message);
    throw error;
  }
}
