// The management (Jolokia) client of one broker node. Every call is one bulk POST carrying many reads and execs,
// passes through the node's limiter, and records its outcome for health. The broker MBean's name is looked up once
// per node URL and cached for the process: it never changes while a broker runs, and the lookup would otherwise
// double every call.
import { kindOfJolokiaError, ManagementError } from './management-error.ts';
import { DEFAULT_MANAGEMENT_LIMITS, type ManagementLimits } from './management.settings.ts';
import { NodeLimiter } from './node-limiter.ts';
import { attachLimiter, forgetNode, recordFailure, recordSuccess } from './node-state-registry.ts';
import {
  JolokiaTransport,
  type JolokiaRequest,
  type JolokiaResponse,
  type ManagementEndpoint,
} from './jolokia-transport.ts';

export type { JolokiaRequest, ManagementEndpoint } from './jolokia-transport.ts';

const ARTEMIS_DOMAIN = 'org.apache.activemq.artemis';
/** An error naming the broker's own MBean (`…:broker="name"` and nothing after it), not one of its queues or addresses. */
const BROKER_MBEAN_ONLY = new RegExp(`${ARTEMIS_DOMAIN.replaceAll('.', '\\.')}:broker="(?:[^"\\\\]|\\\\.)*"\\s*$`);

export type CallResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: ManagementError };

/** Counts the POSTs of the calls it is passed to (a call that repeats a raced listing sends more than one). */
export interface PostTally {
  posts: number;
}

/**
 * How many times a paged listing (listQueues, listConsumers, …) is sent again when it raced a removal: the broker
 * lists the resources, then looks each one up, and one removed in between fails the whole listing with a
 * NullPointerException (a temporary queue deleted mid-listing, on any busy broker). The removal is over by the
 * time the answer arrives, so asking again at once almost always succeeds (management.broker.test.ts churns queues
 * under a listing of 2,000); after the last try the error says what happened.
 */
const RACED_LISTING_RETRIES = 4;
const PAGED_LISTING = /^list\w+\(java\.lang\.String,int,int\)$/;

function racedListing(request: JolokiaRequest | undefined, result: CallResult | undefined): boolean {
  return (
    result !== undefined &&
    !result.ok &&
    request?.type === 'exec' &&
    PAGED_LISTING.test(request.operation) &&
    result.error.kind === 'broker-error' &&
    /NullPointerException/.test(result.error.message)
  );
}

const limiters = new Map<string, NodeLimiter>();
const brokerNames = new Map<string, Promise<string>>();
/** The clients not yet closed, per node URL, so a node that is gone can have its connections ended (held weakly). */
const openClients = new Map<string, Set<WeakRef<ManagementClient>>>();

/** The one limiter of a node (by management URL), created on first use and re-configured with new limits. */
function limiterFor(nodeKey: string, limits: ManagementLimits): NodeLimiter {
  let limiter = limiters.get(nodeKey);
  if (limiter) {
    limiter.configure(limits);
  } else {
    limiter = new NodeLimiter(limits);
    limiters.set(nodeKey, limiter);
    const created = limiter;
    attachLimiter(nodeKey, () => created.stats());
  }
  return limiter;
}

/**
 * Ends everything this process holds for a node's management URL (the node was removed, or its URL changed): the
 * open clients' connections, the limiter, the cached broker name and the health state, so nothing of it is polled
 * or reported again. A client made for the URL later starts afresh.
 */
export function releaseManagementNode(url: string): void {
  for (const client of [...(openClients.get(url) ?? [])]) client.deref()?.close();
  openClients.delete(url);
  limiters.delete(url);
  brokerNames.delete(url);
  forgetNode(url);
}

/** Values in object names are quoted as javax.management.ObjectName.quote does (Artemis quotes every value). */
export function quoteObjectNameValue(value: string): string {
  return `"${value.replace(/[\\"*?]/g, (character) => `\\${character}`).replace(/\n/g, '\\n')}"`;
}

function unquoteObjectNameValue(value: string): string {
  if (!value.startsWith('"')) return value;
  return value.slice(1, -1).replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
}

export class ManagementClient {
  private readonly transport: JolokiaTransport;
  private readonly limiter: NodeLimiter;
  private isClosed = false;
  private readonly ref = new WeakRef(this);

  constructor(
    readonly endpoint: ManagementEndpoint,
    private readonly limits: ManagementLimits = DEFAULT_MANAGEMENT_LIMITS,
  ) {
    this.transport = new JolokiaTransport(endpoint);
    this.limiter = limiterFor(endpoint.url, limits);
    const open = openClients.get(endpoint.url) ?? new Set();
    open.add(this.ref);
    openClients.set(endpoint.url, open);
  }

  get nodeKey(): string {
    return this.endpoint.url;
  }

  /** Ends the client's connections. A call still on its way records nothing after this (it is ours, not the node's). */
  close(): void {
    this.isClosed = true;
    const open = openClients.get(this.nodeKey);
    open?.delete(this.ref);
    if (open?.size === 0) openClients.delete(this.nodeKey);
    this.transport.close();
  }

  /**
   * One bulk POST. Resolves with one result per request (each may fail on its own, classified); rejects with a
   * ManagementError when the whole call failed (network, TLS, login, timeout). A paged listing that raced a removal
   * is sent again in a POST of its own (RACED_LISTING_RETRIES); `tally` counts every POST.
   */
  async call(requests: readonly JolokiaRequest[], tally?: PostTally): Promise<CallResult[]> {
    const results = await this.post(requests, tally);
    const racedAmong = (indexes: readonly number[]) =>
      indexes.filter((index) => racedListing(requests[index], results[index]));
    let raced = racedAmong(requests.map((_, index) => index));
    for (let retry = 0; retry < RACED_LISTING_RETRIES && raced.length > 0; retry++) {
      const again = await this.post(
        raced.map((index) => requests[index] as JolokiaRequest),
        tally,
      );
      raced.forEach((index, position) => {
        const result = again[position];
        if (result) results[index] = result;
      });
      raced = racedAmong(raced);
    }
    for (const index of raced) {
      const { error } = results[index] as { error: ManagementError };
      const message = `${error.message} (the same on ${String(RACED_LISTING_RETRIES + 1)} tries in a row: the broker fails a listing so when a resource is removed while it lists them, here faster than it can list them; if nothing is being removed, the fault is the broker's own)`;
      results[index] = { ok: false, error: new ManagementError('broker-error', message, this.nodeKey) };
    }
    return results;
  }

  private async post(requests: readonly JolokiaRequest[], tally?: PostTally): Promise<CallResult[]> {
    if (requests.length === 0) return [];
    if (tally) tally.posts++;
    try {
      const { value: responses } = await this.limiter.run(() => this.transport.post(requests, this.limits.timeoutMs));
      const results = responses.map((response) => this.toResult(response));
      // A batch refused as a whole (Origin not allowed) is a failure of the channel, not of one request.
      const first = results[0];
      const refusedWhole = results.every((result) => !result.ok && result.error.kind === 'forbidden');
      if (this.isClosed) return results;
      if (refusedWhole && first && !first.ok) recordFailure(this.nodeKey, first.error.toProblem());
      else recordSuccess(this.nodeKey);
      return results;
    } catch (error) {
      const failure =
        error instanceof ManagementError
          ? error
          : new ManagementError('broker-error', String(error), this.nodeKey, { cause: error });
      if (!this.isClosed) recordFailure(this.nodeKey, failure.toProblem());
      throw failure;
    }
  }

  /** One request; its failure is thrown. */
  async callOne(request: JolokiaRequest): Promise<unknown> {
    const [result] = await this.call([request]);
    if (!result) throw new ManagementError('broker-error', 'Jolokia returned no result', this.nodeKey);
    if (!result.ok) throw result.error;
    return result.value;
  }

  /** `org.apache.activemq.artemis:broker="<name>"`, looked up once per node URL (search for the broker MBean). */
  async brokerObjectName(): Promise<string> {
    let name = brokerNames.get(this.nodeKey);
    if (!name) {
      name = this.findBrokerObjectName();
      if (!this.isClosed) brokerNames.set(this.nodeKey, name);
      name.catch(() => brokerNames.delete(this.nodeKey)); // a failed lookup is retried by the next call
    }
    return name;
  }

  /** The broker's name as configured (`<name>` in broker.xml). */
  async brokerName(): Promise<string> {
    const objectName = await this.brokerObjectName();
    return unquoteObjectNameValue(
      objectName.slice(objectName.indexOf('broker=') + 'broker='.length).split(',')[0] ?? '',
    );
  }

  private async findBrokerObjectName(): Promise<string> {
    const found = await this.callOne({ type: 'search', mbean: `${ARTEMIS_DOMAIN}:broker=*` });
    const names = Array.isArray(found) ? found.filter((name): name is string => typeof name === 'string') : [];
    const [first] = names;
    if (!first) {
      throw new ManagementError('not-found', `no Artemis broker MBean is registered at ${this.nodeKey}`, this.nodeKey);
    }
    return first;
  }

  private toResult(response: JolokiaResponse): CallResult {
    if (response.status === 200) return { ok: true, value: response.value };
    const errorType = response.error_type ?? '';
    const message = response.error ?? `Jolokia status ${response.status}`;
    // The broker MBean itself is gone: another broker answers at this URL now (rebuilt under a new name, or another
    // broker on a port used before), so the name cached for it is looked up afresh by the next call.
    if (/InstanceNotFound/.test(errorType) && BROKER_MBEAN_ONLY.test(message)) brokerNames.delete(this.nodeKey);
    return {
      ok: false,
      error: new ManagementError(kindOfJolokiaError(response.status, errorType, message), message, this.nodeKey),
    };
  }
}
