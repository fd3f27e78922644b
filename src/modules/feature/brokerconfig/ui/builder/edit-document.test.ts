import { describe, expect, it } from 'vitest';
import { configDocument } from '../../server/model/document.ts';
import { addBridge, addDivert, addQueue, withoutBlanks, withoutEntry, type EditResult } from './edit-document.ts';

const document = configDocument.parse({
  queues: [{ name: 'orders.q', address: 'orders' }],
  diverts: [{ name: 'audit-copy', address: 'orders', forwardingAddress: 'audit' }],
});

const added = (result: EditResult) => {
  if (!('document' in result)) throw new Error(`refused: ${JSON.stringify(result.errors)}`);
  return result.document;
};
const errorsOf = (result: EditResult) => ('errors' in result ? result.errors : []);

describe('the Builder’s edits of a declared document', () => {
  it('declares a divert last, with the schema’s defaults, and leaves the document it was given alone', () => {
    const next = added(
      addDivert(document, {
        name: 'eu-orders',
        address: 'orders',
        forwardingAddress: 'orders.eu',
        filter: "region='eu'",
      }),
    );
    expect(next.diverts.map((divert) => divert.name)).toEqual(['audit-copy', 'eu-orders']);
    expect(next.diverts[1]).toEqual({
      name: 'eu-orders',
      address: 'orders',
      forwardingAddress: 'orders.eu',
      filter: "region='eu'",
      exclusive: false,
      routingType: 'STRIP',
    });
    expect(document.diverts).toHaveLength(1);
  });

  it('declares a queue and a bridge', () => {
    const withQueue = added(addQueue(document, { name: 'billing.q', address: 'billing', routingType: 'MULTICAST' }));
    expect(withQueue.queues.at(-1)).toMatchObject({ name: 'billing.q', routingType: 'MULTICAST', durable: true });
    const withBridge = added(
      addBridge(withQueue, { name: 'to-dr', queueName: 'billing.q', staticConnectors: ['dr-connector'] }),
    );
    expect(withBridge.bridges).toEqual([
      expect.objectContaining({ name: 'to-dr', queueName: 'billing.q', staticConnectors: ['dr-connector'] }),
    ]);
  });

  it('refuses a second item of one name, in the schema’s words, and changes nothing', () => {
    const result = addDivert(document, { name: 'audit-copy', address: 'orders', forwardingAddress: 'elsewhere' });
    expect('document' in result).toBe(false);
    expect(errorsOf(result)).toEqual([{ path: '', message: 'the divert "audit-copy" is declared twice' }]);
  });

  it('names the field of a bad entry within it', () => {
    const result = addDivert(document, {
      name: 'bad',
      address: 'orders',
      forwardingAddress: 'x',
      routingType: 'SIDEWAYS' as 'STRIP',
    });
    expect(errorsOf(result).map((error) => error.path)).toEqual(['routingType']);
    expect(errorsOf(addQueue(document, { name: 'q', address: ' ' })).map((error) => error.path)).toEqual(['address']);
  });

  it('refuses a bridge with neither static connectors nor a discovery group', () => {
    const result = addBridge(document, { name: 'lost', queueName: 'orders.q', staticConnectors: [''] });
    expect(errorsOf(result)).toEqual([
      { path: '', message: 'a bridge needs staticConnectors or a discoveryGroupName' },
    ]);
  });

  it('reads a blank form field as not set', () => {
    expect(withoutBlanks({ name: ' a ', filter: '', connectors: ['', 'c'], none: [''], exclusive: false })).toEqual({
      name: 'a',
      connectors: ['c'],
      exclusive: false,
    });
    const result = added(addDivert(document, { name: 'plain', address: 'orders', forwardingAddress: 'b', filter: '' }));
    expect(result.diverts.at(-1)).not.toHaveProperty('filter');
  });

  it('removes a declared item by name, and nothing when none has it', () => {
    expect(withoutEntry(document, 'diverts', 'audit-copy').diverts).toEqual([]);
    expect(withoutEntry(document, 'queues', 'nope')).toEqual(document);
  });
});
