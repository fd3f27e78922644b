// The policy in force, per process: read from governance_policy once, compiled, and read again as soon as any
// process saves a new version (announced on the bus), so every read applies a new policy at once. A process that
// lost the bus forgets the copy it had, since an announcement may have been missed.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import {
  compilePolicy,
  DEFAULT_POLICY,
  policyBodySchema,
  type CompiledPolicy,
  type ContentPolicy,
  type PolicyBody,
} from './policy/policy.ts';

const CHANNEL = 'flotilla_governance';

export interface GovernanceRuntime {
  readonly db: Database;
  readonly bus: DatabaseBus;
}

interface InForce {
  readonly policy: ContentPolicy;
  readonly compiled: CompiledPolicy;
}

class PolicyStore {
  private inForce: Promise<InForce> | undefined;

  constructor(private readonly runtime: GovernanceRuntime) {
    runtime.bus.listen(CHANNEL, () => this.forget());
    runtime.bus.onReconnect(() => this.forget());
  }

  forget(): void {
    this.inForce = undefined;
  }

  current(): Promise<InForce> {
    if (!this.inForce) {
      const loading = this.load();
      this.inForce = loading;
      loading.catch(() => {
        if (this.inForce === loading) this.inForce = undefined;
      });
    }
    return this.inForce;
  }

  private async load(): Promise<InForce> {
    const [row] = await this.runtime.db.query<{ version: number; body: unknown }>(
      'SELECT version, body FROM governance_policy ORDER BY version DESC LIMIT 1',
    );
    const policy: ContentPolicy = row ? { ...policyBodySchema.parse(row.body), version: row.version } : DEFAULT_POLICY;
    return { policy, compiled: compilePolicy(policy) };
  }

  /** A new version in force everywhere: stored, then announced. */
  async save(body: PolicyBody, createdBy: string): Promise<ContentPolicy> {
    const [row] = await this.runtime.db.query<{ version: number }>(
      `INSERT INTO governance_policy (version, body, created_by)
       SELECT coalesce(max(version), 0) + 1, $1::jsonb, $2 FROM governance_policy
       RETURNING version`,
      [JSON.stringify(body), createdBy],
    );
    this.forget();
    await this.runtime.bus.notify(CHANNEL, String(row?.version ?? 0));
    return { ...body, version: row?.version ?? 0 };
  }
}

const stores = new WeakMap<DatabaseBus, PolicyStore>();

/** The process's store for this database and bus. */
export function policyStore(runtime: GovernanceRuntime): PolicyStore {
  let store = stores.get(runtime.bus);
  if (!store) {
    store = new PolicyStore(runtime);
    stores.set(runtime.bus, store);
  }
  return store;
}
