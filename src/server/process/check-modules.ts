// Start-up check of the module toggles, run by the supervisor before any child starts, so a bad toggle stops
// `npm start` with one clear message instead of two crash-looping children.
import { resolveModules } from '@/modules/kernel/plugin/registry.ts';
import { readStartupProperties } from '@/modules/kernel/settings/server/settings-sync.ts';
import { openDatabase } from '../db/database.ts';
import { installedModules } from '../modules/installed-modules.ts';

export async function checkModules(databaseUrl: string): Promise<void> {
  const db = openDatabase(databaseUrl, { poolSize: 2, applicationName: 'flotilla-start' });
  try {
    const registry = resolveModules(installedModules, {
      environment: process.env,
      stored: await readStartupProperties(db),
    });
    for (const warning of registry.warnings) console.warn(`[modules] ${warning}`);
    const disabled = registry.modules.filter((entry) => !entry.enabled).map((entry) => entry.descriptor.id);
    if (disabled.length > 0) console.log(`[modules] disabled: ${disabled.join(', ')}`);
  } finally {
    await db.close();
  }
}
