// A cluster's TLS material at rest and in use. The CA is public and stored as given. A client certificate (for
// brokers that demand one on management and AMQP) is stored like the password: certificate and private key sealed
// together by the governance module's secret vault under the current key (AES-256-GCM), bound to the cluster's row
// (`cluster:<id>:tls-client`), with only its subject and expiry in clear for the API and screens. Opened in the
// process that connects, never logged, never returned.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { ProblemError, validationProblem } from '@/modules/kernel/core/index.ts';
import {
  needsResealing,
  openSecretAllowingUnbound,
  sealSecret,
  type KeyRing,
} from '@/modules/platform/governance/index.ts';

/** The TLS part of a registration or an edit, as the caller gives it. */
export interface TlsInput {
  readonly ca?: string | undefined;
  readonly clientCertificate?: string | undefined;
  readonly clientKey?: string | undefined;
}

// Type aliases, not interfaces: Prisma's JSON input takes only object types without a declared shape of their own.
type SealedClientCertificate = {
  readonly cipher: string;
  readonly keyId: string;
  readonly subject: string;
  readonly notAfter: string;
};

/** What `cluster.tls` holds. */
export type StoredTls = {
  readonly ca?: string;
  readonly client?: SealedClientCertificate;
};

/** What the management and native clients are given. */
export interface ClearTls {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

/** What the API shows: never the key, never the certificate itself. */
export interface TlsView {
  readonly ca: boolean;
  readonly clientCertificate: { readonly subject: string; readonly notAfter: string } | null;
}

function invalid(field: string, message: string): ProblemError {
  return new ProblemError(validationProblem([{ field, message }]));
}

/** Certificate and key must both be given, parse as PEM and belong together; answers subject and expiry. */
function checkClientCertificate(certificatePem: string, keyPem: string): { subject: string; notAfter: string } {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    throw invalid('tls.clientCertificate', 'is not a PEM X.509 certificate');
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw invalid('tls.clientKey', 'is not an unencrypted PEM private key');
  }
  if (!certificate.checkPrivateKey(key)) {
    throw invalid('tls.clientKey', 'does not belong to the client certificate');
  }
  return { subject: certificate.subject.replace(/\n/g, ', '), notAfter: new Date(certificate.validTo).toISOString() };
}

/** What a cluster's client certificate and key are bound to in the vault. */
export function tlsClientBinding(clusterId: string): string {
  return `cluster:${clusterId}:tls-client`;
}

/**
 * The TLS to store for the cluster `clusterId` (undefined when there is none); validates the client certificate
 * first.
 */
export function sealTls(keys: KeyRing, clusterId: string, input: TlsInput | null | undefined): StoredTls | undefined {
  if (!input) return undefined;
  const ca = input.ca?.trim() ? input.ca : undefined;
  const hasCertificate = Boolean(input.clientCertificate?.trim());
  const hasKey = Boolean(input.clientKey?.trim());
  if (hasCertificate !== hasKey) {
    throw invalid(
      hasCertificate ? 'tls.clientKey' : 'tls.clientCertificate',
      'give the client certificate and its private key together',
    );
  }
  if (!hasCertificate || !input.clientCertificate || !input.clientKey) return ca ? { ca } : undefined;
  const facts = checkClientCertificate(input.clientCertificate, input.clientKey);
  const material = JSON.stringify({ cert: input.clientCertificate, key: input.clientKey });
  const sealed = sealSecret(keys, material, tlsClientBinding(clusterId));
  return { ...(ca ? { ca } : {}), client: { ...sealed, ...facts } };
}

export function storedTlsOf(raw: unknown): StoredTls {
  if (typeof raw !== 'object' || raw === null) return {};
  const value = raw as Record<string, unknown>;
  const client = value.client as Partial<SealedClientCertificate> | undefined;
  return {
    ...(typeof value.ca === 'string' && value.ca !== '' ? { ca: value.ca } : {}),
    ...(client && typeof client.cipher === 'string' && typeof client.keyId === 'string'
      ? {
          client: {
            cipher: client.cipher,
            keyId: client.keyId,
            subject: client.subject ?? '',
            notAfter: client.notAfter ?? '',
          },
        }
      : {}),
  };
}

/** The clear certificate and key, and whether they were bound to the row (false: sealed before bindings). */
function openClient(
  keys: KeyRing,
  clusterId: string,
  client: SealedClientCertificate,
): { cert: string; key: string; bound: boolean } {
  const { value, bound } = openSecretAllowingUnbound(keys, client, tlsClientBinding(clusterId));
  const material = JSON.parse(value.toString('utf8')) as { cert: string; key: string };
  return { cert: material.cert, key: material.key, bound };
}

/** The clear material for a client; throws VaultError when the sealed certificate cannot be opened. */
export function openTls(keys: KeyRing, cluster: { readonly id: string; readonly tls: unknown }): ClearTls | undefined {
  const stored = storedTlsOf(cluster.tls);
  const client = stored.client ? openClient(keys, cluster.id, stored.client) : undefined;
  if (!stored.ca && !client) return undefined;
  return { ...(stored.ca ? { ca: stored.ca } : {}), ...(client ? { cert: client.cert, key: client.key } : {}) };
}

/**
 * The stored TLS with its client certificate sealed again under the current key and bound to its row, or undefined
 * when there is none or it already is; throws VaultError when no key of the ring opens it.
 */
export function resealTls(
  keys: KeyRing,
  cluster: { readonly id: string; readonly tls: unknown },
): StoredTls | undefined {
  const stored = storedTlsOf(cluster.tls);
  if (!stored.client) return undefined;
  const { cert, key, bound } = openClient(keys, cluster.id, stored.client);
  if (bound && !needsResealing(keys, stored.client)) return undefined;
  const sealed = sealSecret(keys, JSON.stringify({ cert, key }), tlsClientBinding(cluster.id));
  return { ...stored, client: { ...stored.client, ...sealed } };
}

/** The clear material of an input not yet stored (a registration's probe). */
export function clearTlsOf(input: TlsInput | null | undefined): ClearTls | undefined {
  if (!input) return undefined;
  const tls = {
    ...(input.ca?.trim() ? { ca: input.ca } : {}),
    ...(input.clientCertificate?.trim() && input.clientKey?.trim()
      ? { cert: input.clientCertificate, key: input.clientKey }
      : {}),
  };
  return Object.keys(tls).length > 0 ? tls : undefined;
}

export function tlsView(raw: unknown): TlsView | null {
  if (raw === null || raw === undefined) return null;
  const stored = storedTlsOf(raw);
  return {
    ca: Boolean(stored.ca),
    clientCertificate: stored.client ? { subject: stored.client.subject, notAfter: stored.client.notAfter } : null,
  };
}

/** What the audit row records: whether there is a CA, and the certificate's subject, never the key. */
export function tlsAuditFacts(input: TlsInput | null | undefined) {
  if (!input) return null;
  return {
    ca: Boolean(input.ca?.trim()),
    clientCertificate: Boolean(input.clientCertificate?.trim()),
  };
}
