// Audit's per-process start hook: audit rows keep their parameters as the content policy shows them (the module
// contributing audit.parameter-view), in every process that writes them; and the process holds the owner lock its
// PENDING rows name, so the interrupted sweep can tell when it is gone (ADR 35).
import type pg from 'pg';
import type { ProcessStartContext } from '@/modules/kernel/plugin/index.ts';
import { auditParameterView } from './parameter-view.ts';
import { ownAuditRowsAs, storeParametersThrough } from './audit.service.ts';
import { holdProcessOwner } from './process-owner.ts';

let sweepPool: pg.Pool | undefined;

/** The pool of this process's runtime, for the interrupted sweep job (jobs get no pool of their own). */
export function processPool(): pg.Pool | undefined {
  return sweepPool;
}

export async function start({ registry, db, bus, environment, onClose }: ProcessStartContext): Promise<void> {
  const owner = await holdProcessOwner(environment.databaseUrl);
  ownAuditRowsAs(db.prisma, owner.bootId);
  sweepPool = db.pool;
  onClose(async () => {
    if (sweepPool === db.pool) sweepPool = undefined;
    await owner.close();
  });
  const [declared] = registry.contributionsTo(auditParameterView);
  if (!declared) return;
  const view = await declared.value.load();
  storeParametersThrough(db.prisma, async (parameters) => (await view.govern({ db, bus }, [parameters]))[0] ?? {});
}
