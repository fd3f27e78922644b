// From a connector (host:port) in the broker's topology to candidate management URLs for that node, by the seed's
// pattern: same scheme and path; another host keeps the seed's management port (one broker per host, the usual
// layout), then tries the seed's offset; the seed's own host shifts the management port by the same offset as the
// connector port (brokers made with `artemis create --port-offset`). Discovery takes a candidate only when the
// broker that answers there reports the topology member's NodeID. Pure, so the rules are unit-tested.

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

/** How a node's management URL was found: given by the user, or a candidate the broker's NodeID confirmed. */
export type ManagementUrlSource = 'given' | 'seed-port' | 'seed-offset' | 'not-confirmed';

export interface UrlCandidate {
  readonly url: string;
  readonly method: 'seed-port' | 'seed-offset';
}

function urlOnTarget(seedUrl: string, target: Connector, port: number): string {
  const url = new URL(seedUrl);
  url.hostname = target.host.includes(':') ? `[${target.host}]` : target.host;
  url.port = String(port);
  return url.toString();
}

/** Where the node behind `target` may serve management, most likely first, no URL twice. */
export function managementUrlCandidates(
  seed: { managementUrl: string; connector: Connector },
  target: Connector,
): UrlCandidate[] {
  const url = new URL(seed.managementUrl);
  const seedPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const offsetPort = seedPort + (target.port - seed.connector.port);
  const sameHost = target.host.toLowerCase() === seed.connector.host.toLowerCase();
  const ports: Array<{ port: number; method: UrlCandidate['method'] }> = sameHost
    ? [{ port: offsetPort, method: 'seed-offset' }]
    : [
        { port: seedPort, method: 'seed-port' },
        { port: offsetPort, method: 'seed-offset' },
      ];
  // Checked before it is set: URL ignores an invalid port and would keep the seed's.
  const valid = ports
    .filter(({ port }) => Number.isInteger(port) && port > 0 && port < 65_536)
    .map(({ port, method }) => ({ url: urlOnTarget(seed.managementUrl, target, port), method }));
  return valid.filter((candidate, index) => valid.findIndex((other) => other.url === candidate.url) === index);
}

/** The AMQP URL of a discovered node: the connector with the seed's AMQP scheme (amqp unless told amqps). */
export function amqpUrlOf(target: Connector, seedAmqpUrl: string | null | undefined): string {
  const scheme = seedAmqpUrl?.startsWith('amqps:') ? 'amqps' : 'amqp';
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `${scheme}://${host}:${target.port}`;
}
