// Audit's per-process start hook: audit rows keep their parameters as the content policy shows them (the module
// contributing audit.parameter-view), in every process that writes them.
import type { ProcessStartContext } from '@/modules/kernel/plugin/index.ts';
import { auditParameterView } from './parameter-view.ts';
import { storeParametersThrough } from './audit.service.ts';

export async function start({ registry, db, bus }: ProcessStartContext): Promise<void> {
  const [declared] = registry.contributionsTo(auditParameterView);
  if (!declared) return;
  const view = await declared.value.load();
  storeParametersThrough(db.prisma, async (parameters) => (await view.govern({ db, bus }, [parameters]))[0] ?? {});
}
