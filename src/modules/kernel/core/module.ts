import { defineModule } from '../plugin/descriptor.ts';

export const coreModule = defineModule({
  id: 'core',
  title: 'Core',
  layer: 'kernel',
  description: 'Branding, clock, problem-JSON errors, the OpenAPI document and routing of the console.',
  apiPrefixes: ['/api/v1/openapi.json'],
});
