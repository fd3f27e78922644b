import { defineModule } from '../plugin/descriptor.ts';
import { durationSetting } from '../plugin/setting-types.ts';

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
  ],
  apiPrefixes: ['/api/v1/stream'],
});
