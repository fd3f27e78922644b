// The short-lived cache of live-through reads, per cluster and kind, so that ten open screens cost a node one
// management call per period and not ten: a fresh entry is served as it is; a read already on its way is joined
// (single flight); a read that needs several stale kinds fetches them together, in one call per node. A
// notification that a kind changed (a consumer closed) drops its entry at once, so the next read is current.

export interface CachedRead<Value> {
  readonly value: Value;
  /** When the value was read from the brokers (epoch ms). */
  readonly fetchedAt: number;
}

interface Entry<Value> {
  readonly promise: Promise<CachedRead<Value>>;
  /** Set once the read succeeded; an entry without it is still on its way. */
  fetchedAt?: number;
}

export class LiveCache<Kind extends string, Value> {
  private readonly entries = new Map<string, Entry<Value>>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The value of each kind: when all are fresh or on their way, as they are; otherwise one `fetch` call reads every
   * kind not already on its way (it answers a value per kind asked). A failed read is not kept.
   */
  async read(
    scope: string,
    kinds: readonly Kind[],
    ttlMs: number,
    fetch: (kinds: readonly Kind[]) => Promise<Record<Kind, Value>>,
  ): Promise<Record<Kind, CachedRead<Value>>> {
    const now = this.now();
    const stale = kinds.some((kind) => {
      const entry = this.entries.get(this.key(scope, kind));
      return !entry || (entry.fetchedAt !== undefined && now - entry.fetchedAt >= ttlMs);
    });
    // Kinds read together stay consistent (a new consumer's session is in the sessions read with it): when one is
    // stale, every one not already on its way is read again in the same call, which costs the node no extra POST.
    const missing = stale
      ? kinds.filter(
          (kind) =>
            this.entries.get(this.key(scope, kind))?.fetchedAt !== undefined ||
            !this.entries.has(this.key(scope, kind)),
        )
      : [];
    if (missing.length > 0) {
      const shared = fetch(missing).then((values) => ({ values, fetchedAt: this.now() }));
      for (const kind of missing) {
        const key = this.key(scope, kind);
        const promise = shared.then(({ values, fetchedAt }) => ({ value: values[kind], fetchedAt }));
        const entry: Entry<Value> = { promise };
        this.entries.set(key, entry);
        // An entry invalidated while on its way is already out of the map: its readers get it, nobody after them.
        promise.then(
          ({ fetchedAt }) => {
            entry.fetchedAt = fetchedAt;
          },
          () => {
            if (this.entries.get(key) === entry) this.entries.delete(key);
          },
        );
      }
    }
    const answers = await Promise.all(
      kinds.map(async (kind) => {
        const entry = this.entries.get(this.key(scope, kind));
        if (!entry) throw new Error(`no read of ${kind}`);
        return [kind, await entry.promise] as const;
      }),
    );
    return Object.fromEntries(answers) as Record<Kind, CachedRead<Value>>;
  }

  /** Drops what is kept of these kinds (all kinds when none are named) of a scope (of every scope when none). */
  invalidate(scope: string | undefined, kinds?: readonly Kind[]): void {
    for (const key of [...this.entries.keys()]) {
      const [entryScope, kind] = key.split('\u0000') as [string, Kind];
      if ((scope !== undefined && entryScope !== scope) || (kinds && !kinds.includes(kind))) continue;
      this.entries.delete(key);
    }
  }

  private key(scope: string, kind: Kind): string {
    return `${scope}\u0000${kind}`;
  }
}
