// The re-encrypt step of a key rotation: every password under an older key is decrypted with it and sealed under
// the current key, one row at a time so a concurrent edit is never overwritten (the update matches the old cipher).
import type { PrismaClient } from '@/server/db/database.ts';
import { needsResealing, openPassword, sealPassword } from './password-cipher.ts';
import type { KeyRing } from './secret-key.ts';

export interface ResealReport {
  readonly resealed: number;
  readonly alreadyCurrent: number;
  /** Clusters whose password no key of the ring opens: name and reason (never the cipher text). */
  readonly unreadable: ReadonlyArray<{ name: string; reason: string }>;
}

export async function resealPasswords(prisma: PrismaClient, keys: KeyRing): Promise<ResealReport> {
  const rows = await prisma.cluster.findMany({
    select: { id: true, name: true, passwordCipher: true, passwordKeyId: true },
  });
  let resealed = 0;
  let alreadyCurrent = 0;
  const unreadable: Array<{ name: string; reason: string }> = [];
  for (const row of rows) {
    const sealed = { cipher: row.passwordCipher, keyId: row.passwordKeyId };
    if (!needsResealing(keys, sealed)) {
      alreadyCurrent += 1;
      continue;
    }
    try {
      const next = sealPassword(keys, openPassword(keys, sealed));
      const { count } = await prisma.cluster.updateMany({
        where: { id: row.id, passwordCipher: row.passwordCipher },
        data: { passwordCipher: next.cipher, passwordKeyId: next.keyId },
      });
      resealed += count;
    } catch (error) {
      unreadable.push({ name: row.name, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { resealed, alreadyCurrent, unreadable };
}
