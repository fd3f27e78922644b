// From a connector (host:port) in the broker's topology to that node's management URL, by the seed's pattern:
// same scheme and path; another host keeps the seed's management port (one broker per host, the usual layout);
// the seed's own host shifts the management port by the same offset as the connector port (brokers made with
// `artemis create --port-offset`). Pure, so the rule is unit-tested.

export interface Connector {
  readonly host: string;
  readonly port: number;
}

export function parseConnector(text: string): Connector | undefined {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(text.trim());
  if (!match?.[1] || !match[2]) return undefined;
  return { host: match[1], port: Number(match[2]) };
}

export function connectorKey(connector: Connector): string {
  return `${connector.host.toLowerCase()}:${connector.port}`;
}

/** host:port of an AMQP (or tcp) URL, for matching a given node to a topology connector. */
export function connectorOfUrl(url: string | null | undefined): Connector | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    const port = Number(parsed.port || (parsed.protocol === 'amqps:' ? 5671 : 5672));
    return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return undefined;
  }
}

export function guessManagementUrl(seed: { managementUrl: string; connector: Connector }, target: Connector): string {
  const url = new URL(seed.managementUrl);
  const seedPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const sameHost = target.host.toLowerCase() === seed.connector.host.toLowerCase();
  url.hostname = target.host.includes(':') ? `[${target.host}]` : target.host;
  url.port = String(sameHost ? seedPort + (target.port - seed.connector.port) : seedPort);
  return url.toString();
}

/** The AMQP URL of a discovered node: the connector with the seed's AMQP scheme (amqp unless told amqps). */
export function amqpUrlOf(target: Connector, seedAmqpUrl: string | null | undefined): string {
  const scheme = seedAmqpUrl?.startsWith('amqps:') ? 'amqps' : 'amqp';
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `${scheme}://${host}:${target.port}`;
}
