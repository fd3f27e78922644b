// Where and how to reach one broker node over AMQP. The host is always the configured one: the broker's
// advertised hosts (Open frame failover list, connector hosts) are never followed, because they are often
// 0.0.0.0 or names only resolvable inside the broker's network.
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'rhea';

interface NativeTls {
  /** PEM of the CA that signed the broker certificate; when absent the system's CAs are used. */
  readonly ca?: string;
  /** PEM client certificate and key, for acceptors with `needClientAuth`. */
  readonly cert?: string;
  readonly key?: string;
  readonly passphrase?: string;
  /** Name checked against the certificate when it differs from `host`. */
  readonly servername?: string;
}

export interface NativeEndpoint {
  /** Identifies the node everywhere in the native client (subscription state, pools). */
  readonly nodeKey: string;
  /** The group the node belongs to, so open connections can be counted per cluster. */
  readonly clusterKey: string;
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
  readonly tls?: NativeTls;
}

/** Parses `amqp://host:port` or `amqps://host:port` into the address part of an endpoint. */
export function addressFromUrl(url: string): Pick<NativeEndpoint, 'host' | 'port'> & { isTls: boolean } {
  const parsed = new URL(url);
  if (parsed.protocol !== 'amqp:' && parsed.protocol !== 'amqps:') {
    throw new Error(`Not an AMQP URL: ${url}`);
  }
  const isTls = parsed.protocol === 'amqps:';
  const port = parsed.port === '' ? (isTls ? 5671 : 5672) : Number(parsed.port);
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port, isTls };
}

/** rhea options for one connection attempt; rhea's own reconnect is off because ours owns the retries. */
export function rheaConnectOptions(endpoint: NativeEndpoint, containerId: string): ConnectionOptions {
  const common = {
    host: endpoint.host,
    port: endpoint.port,
    username: endpoint.username,
    password: endpoint.password,
    container_id: containerId,
    reconnect: false,
    // Answer the broker's 60 s idle timeout and notice a dead peer without waiting for TCP.
    idle_time_out: 30_000,
  } as const;
  if (!endpoint.tls) return { ...common, transport: 'tcp' };
  const { ca, cert, key, passphrase, servername } = endpoint.tls;
  return {
    ...common,
    transport: 'tls',
    ca,
    cert,
    key,
    passphrase,
    // SNI takes names only. rhea fills an undefined server name with the host, so an IP address gets ''
    // (no SNI); Node then checks the certificate against the host's IP SAN.
    servername: servername ?? (isIP(endpoint.host) ? '' : endpoint.host),
    rejectUnauthorized: true,
  };
}
