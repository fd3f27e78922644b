import { defineModule } from './descriptor.ts';
import { runtimePermissions } from './runtime-permissions.ts';

export { runtimePermissions } from './runtime-permissions.ts';

export const pluginModule = defineModule({
  id: 'plugin',
  title: 'Modules',
  layer: 'kernel',
  description: 'Module descriptors, the feature registry and toggles, the manifest, the feature-disabled answer.',
  // The installer tier's own permission: installing and removing runtime plugins (the plugins module, with step-up
  // re-authentication). It is also what sets an installer above an admin, so no admin can grant themselves it.
  permissions: [{ id: 'plugins:install', description: 'Install and remove plugins', includedIn: 'installer' }],
  // Permissions known only at runtime (running plugins'): listed in the manifest, grantable in custom roles.
  extensionPoints: [runtimePermissions],
});
