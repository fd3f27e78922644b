// The re-encrypt step of a key rotation, and of binding secrets stored before bindings existed: every password and
// client certificate under an older key, or not yet bound to its cluster's row, is opened and sealed again under the
// current key with its binding, one row at a time so a concurrent edit is never overwritten (the update matches the
// old cipher text).
import type { PrismaClient } from '@/base/db/database.ts';
import type { KeyRing } from '@/modules/platform/governance/index.ts';
import { resealPassword } from './password-cipher.ts';
import { resealTls, storedTlsOf } from './cluster-tls.ts';

export interface ResealReport {
  /** Clusters with at least one secret sealed again. */
  readonly resealed: number;
  /** Clusters whose secrets were all under the current key and bound already. */
  readonly alreadyCurrent: number;
  /** Clusters with a secret no key of the ring opens: name and reason (never the cipher text). */
  readonly unreadable: ReadonlyArray<{ name: string; reason: string }>;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function resealPasswords(prisma: PrismaClient, keys: KeyRing): Promise<ResealReport> {
  const rows = await prisma.cluster.findMany({
    select: { id: true, name: true, passwordCipher: true, passwordKeyId: true, tls: true },
    orderBy: { createdAt: 'asc' },
  });
  let resealed = 0;
  let alreadyCurrent = 0;
  const unreadable: Array<{ name: string; reason: string }> = [];
  for (const row of rows) {
    let changed = 0;
    let failed = false;
    try {
      const client = storedTlsOf(row.tls).client;
      const tls = resealTls(keys, row);
      if (tls && client) {
        const { count } = await prisma.cluster.updateMany({
          where: { id: row.id, tls: { path: ['client', 'cipher'], equals: client.cipher } },
          data: { tls },
        });
        changed += count;
      }
    } catch (error) {
      failed = true;
      unreadable.push({ name: row.name, reason: `client certificate: ${reasonOf(error)}` });
    }
    try {
      const next = resealPassword(keys, row);
      if (next) {
        const { count } = await prisma.cluster.updateMany({
          where: { id: row.id, passwordCipher: row.passwordCipher },
          data: { passwordCipher: next.cipher, passwordKeyId: next.keyId },
        });
        changed += count;
      }
    } catch (error) {
      failed = true;
      unreadable.push({ name: row.name, reason: reasonOf(error) });
    }
    if (changed > 0) resealed += 1;
    else if (!failed) alreadyCurrent += 1;
  }
  return { resealed, alreadyCurrent, unreadable };
}
