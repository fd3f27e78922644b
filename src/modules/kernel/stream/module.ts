import { defineModule, durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';
import { streamEventSources } from './server/event-source.ts';

export { streamEventSources } from './server/event-source.ts';

export const streamModule = defineModule({
  id: 'stream',
  title: 'Stream',
  layer: 'kernel',
  description: 'The server-sent-event hub, the stream endpoint and the topic registry.',
  requires: ['core'],
  settings: [
    durationSetting({
      key: 'stream.keep-alive',
      description: 'How often an idle stream sends a `:ping` comment, so proxies and clients know it is alive.',
      defaultValue: '20s',
      min: '1s',
      max: '5m',
    }),
    integerSetting({
      key: 'stream.max-per-user',
      description: 'How many streams one user may hold open at once in one web process; one more answers 429.',
      defaultValue: 10,
      min: 1,
      max: 1_000,
    }),
  ],
  apiPrefixes: ['/api/v1/stream'],
  extensionPoints: [streamEventSources],
  processStart: { load: () => import('./server/process-start.ts') },
});
