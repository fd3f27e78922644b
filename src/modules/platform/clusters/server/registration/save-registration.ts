// Saving a probed registration: cluster, nodes and capability ledger in one audited transaction, the password
// sealed under the current key and bound to the cluster's id, which the caller made before sealing the TLS with it.
// The audit row carries the cluster's id and name, so it keeps both after removal.
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@/base/db/database.ts';
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import type { KeyRing } from '@/modules/platform/governance/index.ts';
import { sealPassword } from '../credentials/password-cipher.ts';
import { tlsAuditFacts, type StoredTls, type TlsInput } from '../credentials/cluster-tls.ts';
import { findEnvironment, resolveEnvironment } from '../environments.ts';
import type { ProbeRequest, ProbeResult } from './probe-cluster.ts';

export interface RegistrationToSave extends Omit<ProbeRequest, 'tls' | 'purpose'> {
  readonly environment: string;
  readonly description: string;
  /** As given (the client key in clear): only its facts reach the audit row, only its sealed form the database. */
  readonly tls?: TlsInput | null;
}

/** What the audit row records about a registration: everything but the password. */
export function registrationParameters(request: RegistrationToSave, result: ProbeResult) {
  return {
    environment: request.environment,
    username: request.credentials.username,
    nodes: result.probe.nodes.map((node) => ({ managementUrl: node.managementUrl, role: node.role })),
    tls: tlsAuditFacts(request.tls),
    checks: result.checks.map((check) => ({ id: check.id, status: check.status })),
  };
}

export async function saveRegistration(
  prisma: PrismaClient,
  request: RequestContext,
  keys: KeyRing,
  registration: RegistrationToSave,
  result: ProbeResult,
  dryRun: boolean,
  /** The new cluster's id (a random UUID) and the TLS to store, already validated and sealed for it (sealTls). */
  cluster: { readonly id: string; readonly tls: StoredTls | undefined },
): Promise<{ clusterId: string; environmentId: string | null }> {
  const clusterId = cluster.id;
  return audited(
    prisma,
    request,
    {
      action: 'cluster.register',
      target: registration.name,
      parameters: registrationParameters(registration, result),
      dryRun,
      cluster: { id: clusterId, name: registration.name },
    },
    async (tx) => {
      if (dryRun) {
        const existing = await findEnvironment(tx, registration.environment);
        return { result: { clusterId, environmentId: existing?.id ?? null } };
      }
      const { environment } = await resolveEnvironment(tx, registration.environment);
      const sealed = sealPassword(keys, { clusterId, password: registration.credentials.password });
      await tx.cluster.create({
        data: {
          id: clusterId,
          name: registration.name,
          environmentId: environment.id,
          description: registration.description,
          username: registration.credentials.username,
          passwordCipher: sealed.cipher,
          passwordKeyId: sealed.keyId,
          tls: cluster.tls,
        },
      });
      await tx.clusterNode.createMany({
        data: result.probe.nodes.map((node) => ({
          id: randomUUID(),
          clusterId,
          managementUrl: node.managementUrl,
          amqpUrl: node.amqpUrl,
          brokerName: node.state?.name ?? null,
          brokerNodeId: node.state?.nodeId || null,
          role: node.role,
          discovered: node.discovered,
          urlSource: node.urlSource.method,
          // The registration's own read counts as the first success; failures keep their reason.
          lastSuccessAt: node.state ? new Date() : null,
          lastFailureAt: node.error ? new Date() : null,
          lastError: node.error ? `${node.error.kind}: ${node.error.message}` : null,
        })),
      });
      await tx.clusterCapability.createMany({
        data: Object.entries(result.probe.capabilities).map(([capability, verdict]) => ({
          clusterId,
          capability,
          value: verdict.value,
          detail: verdict.detail,
          snippet: verdict.snippet ?? null,
          availableAt: verdict.value === 'AVAILABLE' ? new Date() : null,
        })),
      });
      return { result: { clusterId, environmentId: environment.id } };
    },
  );
}
