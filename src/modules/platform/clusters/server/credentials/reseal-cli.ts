// `npm run clusters:reseal`: re-encrypts every stored broker password under the current key (FLOTILLA_SECRET_KEY),
// reading old ones with FLOTILLA_SECRET_KEY_PREVIOUS. Exits 1 when a password could not be read.
import { openDatabase } from '@/server/db/database.ts';
import { resealPasswords } from './reseal.ts';
import { loadKeyRing } from './secret-key.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL must name the database whose cluster passwords to re-encrypt');
  process.exit(2);
}
const keys = loadKeyRing();
const database = openDatabase(url, { poolSize: 2, applicationName: 'flotilla-reseal' });
try {
  const report = await resealPasswords(database.prisma, keys);
  console.log(
    `[reseal] current key ${keys.current.id}: ${report.resealed} re-encrypted, ${report.alreadyCurrent} already current, ${report.unreadable.length} unreadable`,
  );
  for (const { name, reason } of report.unreadable) console.error(`[reseal] ${name}: ${reason}`);
  process.exitCode = report.unreadable.length > 0 ? 1 : 0;
} finally {
  await database.close();
}
