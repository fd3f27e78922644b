// GET /api/v1/governance/remask: per module that stores governed content, how many stored rows were masked by an
// older policy version than the one in force. Each owning module rewrites its own rows in bounded batches.
import type { Database } from '@/base/db/database.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { storedContent } from '../module.ts';
import { policyStore, type GovernanceRuntime } from './policy-store.ts';

export async function remaskStatus(
  runtime: GovernanceRuntime & { readonly registry: ModuleRegistry; readonly db: Database },
) {
  const { policy } = await policyStore(runtime).current();
  const stores = await Promise.all(
    runtime.registry.contributionsTo(storedContent).map(async (contribution) => {
      const store = await contribution.value.load();
      return {
        id: contribution.value.id,
        title: store.title,
        remaining: await store.remaining(runtime.db, policy.version),
      };
    }),
  );
  return { policyVersion: policy.version, stores };
}
