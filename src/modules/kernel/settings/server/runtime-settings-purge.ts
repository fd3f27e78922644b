// A runtime source that is gone for good (a purged plugin) leaves no stored values behind: its rows go in the
// caller's transaction, and after commit every process is told, so none keeps the old value in memory for a plugin
// of the same id uploaded later.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Transaction } from '@/base/db/database.ts';
import { logger } from '@/base/log/log.ts';
import { storedPrefixOfRuntime } from './runtime-declarations.ts';
import { SETTINGS_CHANNEL } from './settings-store.ts';

const log = logger('settings');

/** Deletes the stored values of every runtime setting whose key starts with `prefix`; answers their stored keys. */
export async function forgetRuntimeSettings(tx: Transaction, prefix: string): Promise<string[]> {
  const rows = await tx.flotillaSetting.findMany({
    where: { key: { startsWith: storedPrefixOfRuntime(prefix) } },
    select: { key: true },
  });
  const keys = rows.map((row) => row.key);
  await tx.flotillaSetting.deleteMany({ where: { key: { in: keys } } });
  return keys;
}

/** After the commit: every process re-reads these keys (finding nothing). */
export async function announceForgottenSettings(bus: DatabaseBus, storedKeys: readonly string[]): Promise<void> {
  for (const key of storedKeys)
    await bus
      .notify(SETTINGS_CHANNEL, key)
      .catch((error: unknown) => log.error({ err: error, key }, 'cannot announce'));
}
