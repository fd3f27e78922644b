// A replicated pair whose replication link runs through the fault proxy, so a test can partition the backup from
// its primary without touching either broker — a real split-brain when the link is cut: the backup sees its primary
// gone and activates, while the primary, which still serves its clients, stays active.
//
// The backup finds its primary through the cluster topology, where the primary announces its `artemis` connector;
// that connector (and the backup's static connector to the primary) point at the proxy, which forwards to the
// primary's acceptor. Clients keep using the nodes' own AMQP and management ports. The primary is told not to vote
// on a replication failure (`vote-on-replication-failure` false): with one pair there is nobody to vote with, and
// this is the configuration under which a lost link leaves both members active.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureArtemisHome } from '../../../scripts/artemis-dist.ts';
import { findFreePort } from '../../../src/base/db/embedded-postgres.ts';
import { ArtemisNode, createInstance } from './broker-node.ts';
import { ownerFileName, reapOrphans, TEMP_PREFIX } from './broker-process.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';
import type { Topology } from './index.ts';

export interface HaPairBehindProxy extends Topology {
  readonly primary: ArtemisNode;
  readonly backup: ArtemisNode;
  /** Carries everything the backup sends to its primary: replication, the cluster bridge, quorum checks. */
  readonly replicationLink: FaultProxy;
}

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await findFreePort());
  return [...ports];
}

export async function startHaPairBehindProxy(options: { maxHeap?: string } = {}): Promise<HaPairBehindProxy> {
  const home = ensureArtemisHome();
  reapOrphans();
  const root = mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
  writeFileSync(path.join(root, ownerFileName()), String(process.pid));
  const [primaryAmqp, primaryHttp, backupAmqp, backupHttp] = (await distinctFreePorts(4)) as [
    number,
    number,
    number,
    number,
  ];
  const replicationLink = await startFaultProxy(primaryAmqp);
  const viaProxy = `tcp://127.0.0.1:${replicationLink.port}`;

  const primary = new ArtemisNode({
    name: 'primary',
    role: 'ha-primary',
    instanceDir: path.join(root, 'primary'),
    amqpPort: primaryAmqp,
    managementPort: primaryHttp,
    staticCluster: [`tcp://127.0.0.1:${backupAmqp}`],
    maxHeap: options.maxHeap,
    brokerXmlEdits: (xml) =>
      xml
        .replace(`<connector name="artemis">tcp://127.0.0.1:${primaryAmqp}</connector>`, () => {
          return `<connector name="artemis">${viaProxy}</connector>`;
        })
        .replace(
          '<vote-on-replication-failure>true</vote-on-replication-failure>',
          '<vote-on-replication-failure>false</vote-on-replication-failure>',
        ),
  });
  const backup = new ArtemisNode({
    name: 'backup',
    role: 'ha-backup',
    instanceDir: path.join(root, 'backup'),
    amqpPort: backupAmqp,
    managementPort: backupHttp,
    staticCluster: [viaProxy],
    maxHeap: options.maxHeap,
  });
  const nodes = [primary, backup];
  const pair: HaPairBehindProxy = {
    nodes,
    primary,
    backup,
    replicationLink,
    stop: async () => {
      await Promise.all(nodes.map((node) => node.kill()));
      await replicationLink.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(nodes.map((node) => createInstance(node.spec, home)));
    await primary.start();
    await primary.waitUntilActive();
    await backup.start();
    await backup.waitUntilReplicaInSync();
    return pair;
  } catch (error) {
    await pair.stop();
    throw error;
  }
}
