import { describe, expect, it } from 'vitest';
import { givenConflicts, matchGivenNodes, slotsOf } from './topology-slots.ts';

// As the demo fleet's brokers report it: a two-node cluster, and a replicated pair sharing one NodeID.
const cluster = [
  { nodeId: 'n1', primary: '127.0.0.1:43753', backup: undefined },
  { nodeId: 'n2', primary: '127.0.0.1:35395', backup: undefined },
];
const pair = [{ nodeId: 'p', primary: '127.0.0.1:33399', backup: '127.0.0.1:46231' }];
const live = (nodeId: string) => ({ state: { nodeId, active: true, backup: false } });
const passive = (nodeId: string) => ({ state: { nodeId, active: false, backup: true } });

describe('topology slots', () => {
  it('matches given nodes by NodeID whatever their URLs, leaving nothing to discover', () => {
    const slots = slotsOf(cluster);
    const match = matchGivenNodes(slots, [live('n1'), live('n2')]);
    expect(match.given.map((slot) => slot?.connector.port)).toEqual([43753, 35395]);
    expect(match.unclaimed).toEqual([]);
  });

  it('puts a passive backup in its backup slot and an active one (after failover) in the live slot', () => {
    const slots = slotsOf(pair);
    expect(matchGivenNodes(slots, [live('p'), passive('p')]).given.map((slot) => slot?.side)).toEqual([
      'live',
      'backup',
    ]);
    const afterFailover = slotsOf([{ nodeId: 'p', primary: '127.0.0.1:46231', backup: undefined }]);
    expect(matchGivenNodes(afterFailover, [{ state: { nodeId: 'p', active: true, backup: true } }]).unclaimed).toEqual(
      [],
    );
  });

  it('leaves only the members no given node is; a silent given node claims its slot by AMQP URL', () => {
    const slots = slotsOf(cluster);
    expect(matchGivenNodes(slots, [live('n1')]).unclaimed.map((slot) => slot.nodeId)).toEqual(['n2']);
    expect(matchGivenNodes(slots, [live('n1'), { amqpUrl: 'amqp://127.0.0.1:35395' }]).unclaimed).toEqual([]);
  });

  it('names one broker given twice and a broker the topology does not list', () => {
    const given = [
      { ...live('n1'), role: 'PRIMARY' },
      { ...live('n1'), role: 'PRIMARY' },
      { ...live('elsewhere'), role: 'PRIMARY' },
    ];
    expect(givenConflicts(cluster, given)).toEqual([
      { nodes: [0, 1], reason: 'same-broker' },
      { nodes: [2], reason: 'not-in-topology' },
    ]);
    // A primary and its backup share a NodeID in two roles: no conflict. Without a topology nothing is "elsewhere".
    expect(
      givenConflicts(pair, [
        { ...live('p'), role: 'PRIMARY' },
        { ...passive('p'), role: 'BACKUP' },
      ]),
    ).toEqual([]);
    expect(
      givenConflicts(
        [],
        [
          { ...live('a'), role: 'PRIMARY' },
          { ...live('b'), role: 'PRIMARY' },
        ],
      ),
    ).toEqual([]);
  });
});
