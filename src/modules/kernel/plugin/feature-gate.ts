// The answer for anything that belongs to a disabled feature: 404 `feature-disabled` naming the property.
import type { Problem } from '@/modules/kernel/core/index.ts';
import type { InstalledModule } from './descriptor.ts';
import { environmentVariableFor } from './toggles.ts';

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
