import { defineModule } from '@/modules/kernel/plugin/index.ts';
import { bulkCapSetting } from './server/safety.settings.ts';

export const commandsModule = defineModule({
  id: 'commands',
  title: 'Broker commands',
  layer: 'platform',
  description:
    'The broker command sequence every broker write runs (ADR 15): targets, the audit row committed first, estimates, dry run, the bulk cap, the per-node fan-out and outcome; and the operation dialog that shows it.',
  requires: ['core', 'audit', 'stream', 'broker', 'clusters'],
  settings: [bulkCapSetting],
});
