// One management client per registered node for the process, made again when the node's endpoint, credentials or
// limits change; and a node failure in the words every answer uses (kind, message, advice, configuration snippet).
// Shared by live-through reads and the broker command sequence (platform/commands).
import { createHash } from 'node:crypto';
import {
  ManagementClient,
  ManagementError,
  type ManagementEndpoint,
  type ManagementLimits,
} from '@/modules/platform/broker/index.ts';

export interface NodeFailure {
  readonly kind: string;
  readonly message: string;
  readonly advice: string;
  readonly configSnippet: string | null;
}

const clients = new Map<string, { readonly signature: string; readonly client: ManagementClient }>();

function signatureOf(endpoint: ManagementEndpoint, limits: ManagementLimits): string {
  return createHash('sha256')
    .update(JSON.stringify([endpoint, limits]))
    .digest('hex');
}

export function managementClientFor(
  nodeId: string,
  endpoint: ManagementEndpoint,
  limits: ManagementLimits,
): ManagementClient {
  const signature = signatureOf(endpoint, limits);
  const kept = clients.get(nodeId);
  if (kept?.signature === signature) return kept.client;
  kept?.client.close();
  const client = new ManagementClient(endpoint, limits);
  clients.set(nodeId, { signature, client });
  return client;
}

export function nodeFailureOf(error: unknown, nodeUrl: string): NodeFailure {
  const classified =
    error instanceof ManagementError
      ? error
      : new ManagementError('broker-error', error instanceof Error ? error.message : String(error), nodeUrl);
  const problem = classified.toProblem();
  return {
    kind: problem.kind,
    message: problem.message,
    advice: problem.advice,
    configSnippet: problem.configSnippet ?? null,
  };
}
