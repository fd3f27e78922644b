// Environments group clusters (production, staging…) and carry grants. A registration names one by id or name;
// a new name creates it in the same transaction.
import { randomUUID } from 'node:crypto';
import type { Transaction } from '@/base/db/database.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findEnvironment(tx: Pick<Transaction, 'environment'>, reference: string) {
  if (UUID.test(reference)) {
    const byId = await tx.environment.findUnique({ where: { id: reference.toLowerCase() } });
    if (byId) return byId;
  }
  return tx.environment.findFirst({ where: { name: { equals: reference, mode: 'insensitive' } } });
}

/** The environment named, created when new; `created` tells the caller whether it was. */
export async function resolveEnvironment(tx: Transaction, reference: string) {
  const found = await findEnvironment(tx, reference);
  if (found) return { environment: found, created: false };
  const environment = await tx.environment.create({ data: { id: randomUUID(), name: reference.trim() } });
  return { environment, created: true };
}
