import { defineModule } from '@/modules/kernel/plugin/index.ts';
import { STREAM_SETTINGS } from './server/stream.settings.ts';
import { streamEventSources } from './server/event-source.ts';
import { streamRuntimeTopics } from './server/runtime-topics.ts';

export { streamEventSources } from './server/event-source.ts';
export { streamRuntimeTopics } from './server/runtime-topics.ts';

export const streamModule = defineModule({
  id: 'stream',
  title: 'Stream',
  layer: 'kernel',
  description: 'The server-sent-event hub, the stream endpoint and the topic registry.',
  requires: ['core'],
  settings: Object.values(STREAM_SETTINGS),
  apiPrefixes: ['/api/v1/stream'],
  extensionPoints: [streamEventSources, streamRuntimeTopics],
  processStart: { load: () => import('./server/process-start.ts') },
});
