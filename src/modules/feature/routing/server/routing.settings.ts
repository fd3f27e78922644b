// The routing module's runtime settings: how long one read of a cluster's routing configuration is shared, and how
// large a graph the API hands out before it asks for a filter instead.
import { durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';

/** Each declaration by name: a read names one (`settings.duration(ROUTING_SETTINGS.x)`), never a bare key. */
export const ROUTING_SETTINGS = {
  cacheTtl: durationSetting({
    key: 'routing.cache-ttl',
    description:
      'How long one read of a cluster’s routing configuration (two management calls per node) is shared by every screen and API call of this process; a divert created or removed through Flotilla ends it at once.',
    defaultValue: '5s',
    min: '0s',
    max: '5m',
  }),
  maxGraphItems: integerSetting({
    key: 'routing.max-graph-items',
    description:
      'The most items (addresses, queues, diverts, bridges, cluster connections) a routing graph is answered with; a larger one is answered with its counts only, and the screen asks for an address filter.',
    defaultValue: 10_000,
    min: 1,
    max: 200_000,
  }),
};

export const routingSettings = Object.values(ROUTING_SETTINGS);
