// The native (AMQP) endpoint of a registered node: its AMQP URL, the cluster's user and the password opened from
// its AES-GCM cipher text in this process only. The node's id is its key in the native client (pools, subscription
// cache), the cluster's id groups its connections.
import { addressFromUrl, type NativeEndpoint } from '@/modules/platform/broker/index.ts';
import type { KeyRing } from '@/modules/platform/governance/index.ts';
import { openPassword } from '../server/credentials/password-cipher.ts';
import { openTls } from '../server/credentials/cluster-tls.ts';

export interface ClusterCredentials {
  readonly id: string;
  readonly username: string;
  readonly passwordCipher: string;
  readonly passwordKeyId: string;
  readonly tls: unknown;
}

/** Why a node cannot be subscribed to, before any connection is tried. */
export class EndpointUnavailable extends Error {
  override readonly name = 'EndpointUnavailable';
}

export function nativeEndpointOf(
  cluster: ClusterCredentials,
  node: { readonly id: string; readonly amqpUrl: string | null },
  keys: KeyRing,
): NativeEndpoint {
  if (!node.amqpUrl) throw new EndpointUnavailable('no AMQP URL is known for this node; add one to the node');
  let address: ReturnType<typeof addressFromUrl>;
  try {
    address = addressFromUrl(node.amqpUrl);
  } catch {
    throw new EndpointUnavailable(`the node's AMQP URL ${node.amqpUrl} is not amqp:// or amqps://`);
  }
  let password: string;
  try {
    password = openPassword(keys, cluster);
  } catch (error) {
    throw new EndpointUnavailable(error instanceof Error ? error.message : String(error));
  }
  let tls: ReturnType<typeof openTls>;
  try {
    tls = openTls(keys, cluster);
  } catch (error) {
    throw new EndpointUnavailable(error instanceof Error ? error.message : String(error));
  }
  return {
    nodeKey: node.id,
    clusterKey: cluster.id,
    host: address.host,
    port: address.port,
    username: cluster.username,
    password,
    ...(address.isTls ? { tls: tls ?? {} } : {}),
  };
}
