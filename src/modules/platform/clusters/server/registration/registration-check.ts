// The registration-check extension point's contract: what a check sees of the cluster being registered (plain data,
// no clients) and what it answers. Declared by clusters, which runs every enabled module's checks in module order.
import type { ManagementUrlSource } from './management-url-guess.ts';

/** One registration check's answer, shown to whoever registers a cluster before anything is saved. */
export interface RegistrationCheckOutcome {
  readonly status: 'ok' | 'warn' | 'fail';
  readonly detail: string;
  /** What to do about a warn or fail, in words. */
  readonly advice?: string;
  /** Broker configuration that would change the answer, with the file it belongs in. */
  readonly snippet?: string;
}

/** What the clusters module found about one node of the cluster being registered (plain data, no clients). */
export interface RegistrationProbeNode {
  readonly managementUrl: string;
  readonly amqpUrl: string | null;
  /** Found through the seed's topology rather than given. */
  readonly discovered: boolean;
  /** How its management URL was found, in a word and in a sentence (what was tried, what confirmed it). */
  readonly urlSource: { readonly method: ManagementUrlSource; readonly detail: string };
  readonly role: 'PRIMARY' | 'BACKUP' | 'UNKNOWN';
  /** Set when the node answered its state read. */
  readonly state?: {
    readonly name: string;
    readonly version: string;
    readonly nodeId: string;
    readonly active: boolean;
    readonly backup: boolean;
    readonly haPolicy: string;
  };
  /** Set when it did not: a classified management error. */
  readonly error?: {
    readonly kind: string;
    readonly message: string;
    readonly advice: string;
    readonly snippet?: string;
  };
}

export interface RegistrationProbe {
  /** A registration checks what a person gave; a rediscovery probes the nodes already stored. */
  readonly purpose: 'register' | 'rediscover';
  readonly clusterName: string;
  readonly username: string;
  /** The seed first, then every other given node, then the discovered ones. */
  readonly nodes: readonly RegistrationProbeNode[];
  /** Given nodes that cannot be registered as given (one broker twice, another cluster's broker), in words. */
  readonly conflicts: readonly string[];
  /** Capability verdicts read on the seed: MANAGEMENT_READ, MANAGEMENT_WRITE, NOTIFICATIONS, MESSAGE_IO. */
  readonly capabilities: Readonly<
    Record<
      string,
      { readonly value: 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN'; readonly detail: string; readonly snippet?: string }
    >
  >;
  /** One Jolokia bulk call to a node of the cluster (with the registration's credentials), for checks needing more. */
  readonly call: (managementUrl: string, requests: readonly object[]) => Promise<unknown[]>;
}

/**
 * A check run while a cluster is registered (and on every dry-run probe). A failing blocking check refuses the
 * registration; every result is shown either way.
 */
export interface RegistrationCheckDeclaration {
  readonly id: string;
  readonly title: string;
  readonly blocking: boolean;
  readonly load: () => Promise<{ run: (probe: RegistrationProbe) => Promise<RegistrationCheckOutcome> }>;
}
