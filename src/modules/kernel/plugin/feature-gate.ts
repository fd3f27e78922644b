// The answer for anything that belongs to a disabled feature: 404 `feature-disabled` naming the property.
import type { Problem } from '../core/problem.ts';
import { environmentVariableFor } from './descriptor.ts';
import type { InstalledModule } from './registry.ts';

export function featureDisabledProblem(module: InstalledModule): Problem {
  const variable = environmentVariableFor(module.enablingProperty);
  return {
    type: 'feature-disabled',
    title: 'Feature disabled',
    status: 404,
    detail:
      `The ${module.descriptor.title} feature is turned off. Set ${module.enablingProperty}=true ` +
      `(environment ${variable}=true) and restart Flotilla to turn it on.`,
    module: module.descriptor.id,
    property: module.enablingProperty,
    environmentVariable: variable,
  };
}
