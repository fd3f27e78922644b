import { defineModule } from './descriptor.ts';

export const pluginModule = defineModule({
  id: 'plugin',
  title: 'Modules',
  layer: 'kernel',
  description: 'Module descriptors, the feature registry and toggles, the manifest, the feature-disabled answer.',
  requires: ['core'],
  apiPrefixes: ['/api/v1/manifest'],
});
