// One failing consumer of broker events does not keep the others from an event, nor from finishing at shutdown.
import { describe, expect, it } from 'vitest';
import {
  contribution,
  defineModule,
  resolveModules,
  type WorkerServiceContext,
} from '@/modules/kernel/plugin/index.ts';
import { brokerEventConsumers, brokerModule } from '../module.ts';
import type { BrokerEvent } from './broker-event.ts';
import { loadBrokerEventDispatcher } from './broker-event-consumers.ts';
import { captureLogLines } from '@test/log-lines.ts';

const event: BrokerEvent = {
  kind: 'CONSUMER_CREATED',
  nodeKey: 'n1',
  clusterKey: 'c1',
  time: '2026-11-24T00:00:00.000Z',
  properties: {},
};

describe('the broker event dispatcher', () => {
  it('isolates consumers: one that throws on an event or at stop leaves the others working', async () => {
    const received: string[] = [];
    let stopped = false;
    const consumerModule = (id: string, consumer: { consume(e: BrokerEvent): void; stop?(): Promise<void> }) =>
      defineModule({
        id,
        title: id,
        layer: 'feature',
        description: '',
        requires: ['broker'],
        contributions: [contribution(brokerEventConsumers, { id: 'c', load: () => Promise.resolve(consumer) })],
      });
    const registry = resolveModules(
      [
        brokerModule,
        consumerModule('broken', {
          consume: () => {
            throw new Error('boom');
          },
          stop: () => Promise.reject(new Error('stop failed')),
        }),
        consumerModule('healthy', {
          consume: (e) => received.push(e.kind),
          stop: () => {
            stopped = true;
            return Promise.resolve();
          },
        }),
      ],
      { environment: {}, stored: new Map() },
    );
    const logs = captureLogLines();
    try {
      const dispatcher = await loadBrokerEventDispatcher(registry, {} as WorkerServiceContext);
      dispatcher.handle(event);
      dispatcher.handle(event);
      expect(received).toEqual(['CONSUMER_CREATED', 'CONSUMER_CREATED']);
      await dispatcher.stop();
      expect(stopped).toBe(true);
      const failed = { level: 'error', module: 'broker', consumer: 'broken/c' };
      expect(logs.lines()).toEqual([
        expect.objectContaining({ ...failed, kind: 'CONSUMER_CREATED', msg: 'a broker event consumer failed' }),
        expect.objectContaining({ ...failed, kind: 'CONSUMER_CREATED', msg: 'a broker event consumer failed' }),
        expect.objectContaining({ ...failed, msg: 'a broker event consumer did not stop' }),
      ]);
    } finally {
      logs.restore();
    }
  });
});
