// The startup toggle of a module: its property, the property's environment form, and whether it may be off at all.
// Kept apart from the descriptor so the registry, the feature gate and the manifest share one definition.
import type { ModuleDescriptor } from './descriptor.ts';

/** The startup property that turns a module on or off, e.g. `flotilla.features.queues.enabled`. */
export function enablingProperty(moduleId: string): string {
  return `flotilla.features.${moduleId}.enabled`;
}

/** The environment form of a property: dots and hyphens become underscores, letters upper case. */
export function environmentVariableFor(property: string): string {
  return property.replace(/[.-]/g, '_').toUpperCase();
}

/** Kernel and platform modules are required; `mcp` is the one platform module that may be turned off. */
export function canBeDisabled(module: Pick<ModuleDescriptor, 'id' | 'layer'>): boolean {
  return module.layer === 'feature' || module.id === 'mcp';
}
