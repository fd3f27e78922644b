// Which addresses of a cluster a capture tap feeds (sql on), the rest being sampled: asked by the worker's correlator
// and by every answer that says how an address is fed. sql is only used by rr, so it is asked only while it is on.
import type { PrismaClient } from '@/base/db/database.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';

export async function capturedAddressesOf(
  runtime: { readonly registry: ModuleRegistry; readonly prisma: PrismaClient },
  clusterId: string,
): Promise<Set<string>> {
  if (!runtime.registry.isEnabled('sql')) return new Set();
  const sql = await import('@/modules/feature/sql/index.ts');
  return new Set(await sql.capturedAddresses(runtime.prisma, clusterId));
}
