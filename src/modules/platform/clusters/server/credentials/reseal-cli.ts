// `npm run clusters:reseal`: re-encrypts every stored broker password and client certificate under the current key
// (FLOTILLA_SECRET_KEY) bound to its cluster's row, reading old ones with FLOTILLA_SECRET_KEY_PREVIOUS. Exits 1 when
// a secret could not be read.
import { openDatabase } from '@/base/db/database.ts';
import { loadKeyRing } from '@/modules/platform/governance/index.ts';
import { resealPasswords } from './reseal.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL must name the database whose cluster secrets to re-encrypt');
  process.exit(2);
}
const keys = loadKeyRing();
const database = openDatabase(url, { poolSize: 2, applicationName: 'flotilla-reseal' });
try {
  const report = await resealPasswords(database.prisma, keys);
  console.log(
    `[reseal] current key ${keys.current.id}: ${report.resealed} clusters re-encrypted, ${report.alreadyCurrent} already current, ${report.unreadable.length} unreadable`,
  );
  for (const { name, reason } of report.unreadable) console.error(`[reseal] ${name}: ${reason}`);
  process.exitCode = report.unreadable.length > 0 ? 1 : 0;
} finally {
  await database.close();
}
