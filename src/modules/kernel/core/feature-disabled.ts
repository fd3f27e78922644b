// The answer for anything that belongs to a disabled feature: 404 `feature-disabled` naming the property. Beside the
// other problems, so the module contract (which knows the toggles) needs no problem type of its own.
import { environmentVariableFor, type InstalledModule } from '@/modules/kernel/plugin/index.ts';
import type { Problem } from './problem.ts';

export function featureDisabledProblem(entry: InstalledModule): Problem {
  const variable = environmentVariableFor(entry.enablingProperty);
  return {
    type: 'feature-disabled',
    title: 'Feature disabled',
    status: 404,
    detail:
      `The ${entry.descriptor.title} feature is turned off. Set ${entry.enablingProperty}=true ` +
      `(environment ${variable}=true) and restart Flotilla to turn it on.`,
    module: entry.descriptor.id,
    property: entry.enablingProperty,
    environmentVariable: variable,
  };
}
