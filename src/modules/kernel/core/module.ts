import { defineModule, integerSetting } from '@/modules/kernel/plugin/index.ts';

export const coreModule = defineModule({
  id: 'core',
  title: 'Core',
  layer: 'kernel',
  description: 'Branding, clock, problem-JSON errors, the OpenAPI document and routing of the console.',
  settings: [
    integerSetting({
      key: 'http.max-body-bytes',
      description:
        'The largest request body the API accepts from a signed-in caller, in bytes (anonymous callers: 64 KiB). ' +
        'Larger ones are refused with 413 before they are read.',
      defaultValue: 1_048_576,
      min: 65_536,
      max: 104_857_600,
    }),
  ],
  apiPrefixes: ['/api/v1/openapi.json'],
});
