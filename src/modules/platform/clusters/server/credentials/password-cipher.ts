// Broker passwords at rest, sealed by the governance module's secret vault (AES-256-GCM under the installation's
// key ring) and bound to their cluster's row (`cluster:<id>:password`): a cipher copied onto another cluster does
// not open. Passwords stored before bindings existed still open until `npm run clusters:reseal` binds them.
import {
  needsResealing,
  openSecretAllowingUnbound,
  sealSecret,
  type KeyRing,
  type Sealed,
} from '@/modules/platform/governance/index.ts';

/** The columns of a cluster row that hold its password. */
export interface StoredPassword {
  readonly id: string;
  readonly passwordCipher: string;
  readonly passwordKeyId: string;
}

/** What a cluster's password is bound to in the vault. */
export function passwordBinding(clusterId: string): string {
  return `cluster:${clusterId}:password`;
}

/** Named arguments: the cluster id and the password are both strings, and a swap must not compile quietly. */
export function sealPassword(keys: KeyRing, secret: { clusterId: string; password: string }): Sealed {
  return sealSecret(keys, secret.password, passwordBinding(secret.clusterId));
}

function openStoredPassword(keys: KeyRing, cluster: StoredPassword): { password: string; bound: boolean } {
  const sealed = { cipher: cluster.passwordCipher, keyId: cluster.passwordKeyId };
  const { value, bound } = openSecretAllowingUnbound(keys, sealed, passwordBinding(cluster.id));
  return { password: value.toString('utf8'), bound };
}

/** The clear password; throws VaultError (never revealing the cipher text) when it cannot be read. */
export function openPassword(keys: KeyRing, cluster: StoredPassword): string {
  return openStoredPassword(keys, cluster).password;
}

/**
 * The password sealed again under the current key and bound to its row, or undefined when it already is; throws
 * VaultError when no key of the ring opens it.
 */
export function resealPassword(keys: KeyRing, cluster: StoredPassword): Sealed | undefined {
  const { password, bound } = openStoredPassword(keys, cluster);
  const current = !needsResealing(keys, { cipher: cluster.passwordCipher, keyId: cluster.passwordKeyId });
  return bound && current ? undefined : sealPassword(keys, { clusterId: cluster.id, password });
}
