// Start-up preparation run by the supervisor before any child starts: the module toggles (a bad toggle stops
// `npm start` with one clear message instead of two crash-looping children), the built-in roles, and the first
// admin when there are no users yet.
import { resolveModules } from '@/modules/kernel/plugin/index.ts';
import { ensureFirstAdmin, syncBuiltInRoles } from '@/modules/kernel/security/index.ts';
import { readStartupProperties } from '@/modules/kernel/settings/index.ts';
import { openDatabase } from '@/base/db/database.ts';
import { installedModules } from '@/installation/modules.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('supervisor');

export async function prepareInstallation(databaseUrl: string): Promise<void> {
  const db = openDatabase(databaseUrl, { poolSize: 2, applicationName: 'flotilla-start' });
  try {
    const registry = resolveModules(installedModules, {
      environment: process.env,
      stored: await readStartupProperties(db),
    });
    for (const warning of registry.warnings) log.warn(warning);
    const disabled = registry.modules.filter((entry) => !entry.enabled).map((entry) => entry.descriptor.id);
    if (disabled.length > 0) log.info({ disabled }, `modules disabled: ${disabled.join(', ')}`);
    await syncBuiltInRoles(db.prisma, registry.permissionCatalogue());
    const admin = await ensureFirstAdmin(db.prisma, process.env);
    if (admin?.generatedPassword) {
      // The one secret a line carries on purpose: the operator has no other way to learn it (docs/security.md), and
      // it must be changed at the first sign-in. In the message, not a field, so redaction by key leaves it.
      log.warn(
        { username: admin.username },
        `created the first admin "${admin.username}" with the password ${admin.generatedPassword} ` +
          '(shown only this once; it must be changed at the first sign-in)',
      );
    } else if (admin) {
      log.info(
        { username: admin.username },
        'created the first admin from FLOTILLA_ADMIN_USERNAME/FLOTILLA_ADMIN_PASSWORD',
      );
    }
  } finally {
    await db.close();
  }
}
