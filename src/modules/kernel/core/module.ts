import { defineModule } from '@/modules/kernel/plugin/index.ts';
import { CORE_SETTINGS } from './core.settings.ts';

export const coreModule = defineModule({
  id: 'core',
  title: 'Core',
  layer: 'kernel',
  description: 'Branding, clock, problem-JSON errors, the OpenAPI document and routing of the console.',
  settings: Object.values(CORE_SETTINGS),
  apiPrefixes: ['/api/v1/openapi.json'],
});
