// The clusters module's own registration checks. Each reads the probe the registration made (no extra broker
// calls) and answers ok, warn or fail with advice; other modules contribute theirs to the clusters.registration-checks extension point.
import type { RegistrationCheckOutcome, RegistrationProbe, RegistrationProbeNode } from './registration-check.ts';
import { logicalNodes } from './discovery.ts';

type Check = { run: (probe: RegistrationProbe) => Promise<RegistrationCheckOutcome> };

/** The built-in checks decide from the probe alone, so each is a plain function behind the async contract. */
const check = (decide: (probe: RegistrationProbe) => RegistrationCheckOutcome): Check => ({
  run: (probe) => Promise.resolve(decide(probe)),
});

const NETWORK_KINDS = new Set(['unreachable', 'network-not-allowed', 'tls', 'timeout']);
const ACCESS_KINDS = new Set(['auth-failed', 'forbidden']);

/** Oldest broker whose list options (blank filters, sortField, NOT_EQUALS) Flotilla uses without workarounds. */
export const FULLY_SUPPORTED_VERSION = '2.38.0';

function describeNode(node: RegistrationProbeNode): string {
  return `${node.managementUrl}${node.discovered ? ' (discovered)' : ''}`;
}

function firstError(nodes: readonly RegistrationProbeNode[], kinds: ReadonlySet<string>) {
  return nodes.find((node) => node.error && kinds.has(node.error.kind));
}

export const reachability = check(({ nodes }) => {
  const [seed] = nodes;
  if (!seed) return { status: 'fail', detail: 'No node was given.', advice: 'Give at least one management URL.' };
  if (seed.error && NETWORK_KINDS.has(seed.error.kind)) {
    return {
      status: 'fail',
      detail: `${seed.managementUrl}: ${seed.error.message}`,
      advice: seed.error.advice,
      snippet: seed.error.snippet,
    };
  }
  // Only an Artemis broker's own answer counts: its broker MBean read. Anything else that answered HTTP is not one.
  // (A refused sign-in is the authentication check's to fail.)
  if (!seed.state && !(seed.error && ACCESS_KINDS.has(seed.error.kind))) {
    return {
      status: 'fail',
      detail: `${seed.managementUrl} did not answer as an Artemis broker${seed.error ? `: ${seed.error.message}` : '.'}`,
      advice:
        'Give the Jolokia URL of an Apache ActiveMQ Artemis broker (its web console, e.g. http://host:8161/console/jolokia) with JMX management on.',
      snippet: seed.error?.snippet,
    };
  }
  const unreachable = nodes.filter((node) => node.error && NETWORK_KINDS.has(node.error.kind));
  if (unreachable.length > 0) {
    const first = unreachable[0]?.error;
    return {
      status: 'warn',
      detail: `Not reachable: ${unreachable.map(describeNode).join(', ')}.`,
      advice: `${first?.advice ?? ''} A discovered node's management URL is tried from the seed's ports and taken only when the broker there reports the node's NodeID; when none did, give the node with both its managementUrl and amqpUrl.`,
      snippet: first?.snippet,
    };
  }
  return { status: 'ok', detail: `${nodes.length} node${nodes.length === 1 ? '' : 's'} answered.` };
});

export const authentication = check(({ nodes, username }) => {
  const [seed] = nodes;
  if (!seed || (seed.error && NETWORK_KINDS.has(seed.error.kind))) {
    return { status: 'warn', detail: 'Not checked: the seed node did not answer.' };
  }
  if (!seed.state && !(seed.error && ACCESS_KINDS.has(seed.error.kind))) {
    return { status: 'warn', detail: 'Not checked: the seed did not answer as an Artemis broker.' };
  }
  const refused = firstError(nodes, ACCESS_KINDS);
  if (refused?.error) {
    return {
      status: 'fail',
      detail: `${refused.managementUrl} refused user "${username}": ${refused.error.message}`,
      advice: refused.error.advice,
      snippet: refused.error.snippet,
    };
  }
  return { status: 'ok', detail: `Signed in as "${username}".` };
});

function compareVersions(a: string, b: string): number {
  const parts = (text: string) =>
    text
      .split(/[.-]/)
      .slice(0, 3)
      .map((part) => Number.parseInt(part, 10) || 0);
  const [left, right] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

export const version = check(({ nodes }) => {
  const answered = nodes.filter((node) => node.state);
  if (answered.length === 0) return { status: 'warn', detail: 'Not checked: no node answered.' };
  const versions = [...new Set(answered.map((node) => node.state?.version ?? ''))];
  const old = versions.filter((found) => compareVersions(found, FULLY_SUPPORTED_VERSION) < 0);
  if (old.length > 0) {
    return {
      status: 'warn',
      detail: `Artemis ${versions.join(', ')}; older than ${FULLY_SUPPORTED_VERSION}.`,
      advice: `Flotilla works with older brokers but sorting and some list filters are limited before ${FULLY_SUPPORTED_VERSION}.`,
    };
  }
  if (versions.length > 1) {
    return {
      status: 'warn',
      detail: `Mixed versions: ${versions.join(', ')}.`,
      advice: 'Finish the rolling upgrade.',
    };
  }
  return { status: 'ok', detail: `Artemis ${versions.join(', ')}.` };
});

export const capabilities = check(({ capabilities: ledger }) => {
  const read = ledger.MANAGEMENT_READ;
  if (!read || read.value === 'UNAVAILABLE') {
    return {
      status: 'fail',
      detail: `Management read is unavailable: ${read?.detail ?? 'not probed'}`,
      advice: 'Flotilla needs at least to read the broker through Jolokia.',
      snippet: read?.snippet,
    };
  }
  if (read.value === 'UNKNOWN') return { status: 'warn', detail: `Not checked: ${read.detail}` };
  const missing = Object.entries(ledger).filter(([, verdict]) => verdict.value === 'UNAVAILABLE');
  if (missing.length > 0) {
    return {
      status: 'warn',
      detail: missing.map(([name, verdict]) => `${name}: ${verdict.detail}`).join(' '),
      advice: 'Registration can go ahead; these controls stay disabled until the broker allows them.',
      snippet: missing.map(([, verdict]) => verdict.snippet).find(Boolean),
    };
  }
  const values = Object.entries(ledger).map(([name, verdict]) => `${name} ${verdict.value}`);
  return { status: 'ok', detail: values.join(', ') };
});

export const topology = check(({ nodes }) => {
  // An unreachable seed told us nothing about the topology: say so, never "ok".
  if (!nodes[0]?.state) return { status: 'warn', detail: 'Not checked: the seed node did not answer.' };
  const logical = logicalNodes(nodes);
  const pairs = logical.filter((entry) => entry.members.length > 1).length;
  const discovered = nodes.filter((node) => node.discovered).length;
  return {
    status: 'ok',
    detail: `${nodes.length} node${nodes.length === 1 ? '' : 's'} (${discovered} discovered), ${logical.length} logical node${logical.length === 1 ? '' : 's'}, ${pairs} primary/backup pair${pairs === 1 ? '' : 's'}.`,
  };
});

/**
 * What a person gave must be this cluster's brokers, each once, and (when registering) each must answer: a given URL
 * that is unreachable, another cluster's broker or one broker given twice refuses the registration, naming the node.
 * A rediscovery probes stored nodes, some of which may be down for now: those are the reachability check's warning.
 */
export const givenNodes = check(({ nodes, conflicts, purpose }) => {
  const given = nodes.filter((node) => !node.discovered);
  const silent = purpose === 'register' ? given.slice(1).filter((node) => !node.state) : [];
  const problems = [
    ...conflicts,
    ...silent.map(
      (node) =>
        `${node.managementUrl} did not answer as a broker${node.error ? ` (${node.error.kind}: ${node.error.message})` : ''}.`,
    ),
  ];
  if (problems.length > 0) {
    return {
      status: 'fail',
      detail: problems.join(' '),
      advice:
        'Correct or leave out the nodes named: give each broker of this cluster once, by a URL that answers. Nodes not given are found from the topology.',
      snippet: silent.find((node) => node.error?.snippet)?.error?.snippet,
    };
  }
  return {
    status: 'ok',
    detail: `${given.length} given node${given.length === 1 ? '' : 's'}, each a distinct broker of this cluster.`,
  };
});
