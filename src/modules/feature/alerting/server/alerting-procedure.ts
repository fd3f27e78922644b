// What the alerting routers share: the module's procedure builder, the two permission shapes and the one-field
// validation problem. Rules and alerts are scoped (alert-access.ts): their procedures check the permission where
// the rule or alert lives. Channels are installation-wide, so changing one needs alert:write everywhere.
import { moduleProcedure } from '@/modules/kernel/access/index.ts';
import { ProblemError, validationProblem } from '@/modules/kernel/core/index.ts';

export const procedure = moduleProcedure('alerting');
export const scoped = 'authenticated' as const;
export const write = { permission: 'alert:write' } as const;
export const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A 400 problem naming the one field at fault. */
export const invalid = (field: string, message: string) =>
  new ProblemError(validationProblem([{ field, message }], `${field} ${message}.`));
