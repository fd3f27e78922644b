import { defineModule } from '@/modules/kernel/plugin/index.ts';
import { settingsRuntimeDeclarations } from './server/runtime-declarations.ts';

export { settingsRuntimeDeclarations } from './server/runtime-declarations.ts';

export const settingsModule = defineModule({
  id: 'settings',
  title: 'Settings',
  layer: 'kernel',
  description: 'Runtime settings declared by modules, stored in flotilla_setting and shared by every process.',
  requires: ['core', 'access', 'plugin', 'audit'],
  permissions: [
    { id: 'settings:read', description: 'Read settings and their values', includedIn: 'viewer' },
    { id: 'settings:write', description: 'Change settings', includedIn: 'admin' },
  ],
  apiPrefixes: ['/api/v1/settings'],
  // Settings known only at runtime (running plugins'): listed, changed and audited like a module's.
  extensionPoints: [settingsRuntimeDeclarations],
});
