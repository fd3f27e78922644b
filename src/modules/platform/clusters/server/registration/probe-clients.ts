// Management clients for one probe (registration, rediscovery, a node edit): one per URL, with the probe's
// credentials and TLS and the allowed networks, all closed (and their health entries forgotten) when it ends.
import type { BlockList } from 'node:net';
import { forgetNode, ManagementClient, type ManagementLimits } from '@/modules/platform/broker/index.ts';
import type { ClientFor } from './discovery.ts';

/** In clear, for this probe only: the CA and the client certificate and key, when the brokers demand one. */
export interface ProbeTls {
  /** PEM of the CA(s) that signed the brokers' management certificates. */
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

export interface ProbeAccess {
  readonly credentials: { readonly username: string; readonly password: string };
  readonly tls?: ProbeTls | null;
  readonly limits: ManagementLimits;
  /** clusters.allowed-networks: every node contacted must resolve inside it. */
  readonly allowedNetworks: BlockList;
}

export async function withProbeClients<T>(access: ProbeAccess, work: (clientFor: ClientFor) => Promise<T>): Promise<T> {
  const clients = new Map<string, ManagementClient>();
  const clientFor: ClientFor = (managementUrl) => {
    let client = clients.get(managementUrl);
    if (!client) {
      client = new ManagementClient(
        {
          url: managementUrl,
          user: access.credentials.username,
          password: access.credentials.password,
          tls: access.tls ?? undefined,
          allowedNetworks: access.allowedNetworks,
        },
        access.limits,
      );
      clients.set(managementUrl, client);
    }
    return client;
  };
  try {
    return await work(clientFor);
  } finally {
    for (const [url, client] of clients) {
      client.close();
      forgetNode(url);
    }
  }
}
