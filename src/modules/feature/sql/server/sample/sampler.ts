// Sampled indexing (spec: SQL console, message index and capture, item 4): every sql.sample.interval the worker that
// owns a cluster browses each sampled queue on each serving node, from its high-water mark on, and hands the new
// messages to the index writer. It is complete only for messages that stay long enough to be seen: a queue that
// drains faster than the interval is invisible to it, which every screen and answer over sampled rows says.
// One management POST per node per page (every sampled queue of the node in it); a few pages per pass at most, so
// a deep backlog is indexed over several passes instead of one long one.
import type { Pool } from 'pg';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { browseQueues, managementLimitsOf, type QueueRef } from '@/modules/platform/broker/index.ts';
import { loadCommandTargets, managementClientFor } from '@/modules/platform/clusters/index.ts';
import { readQueuesOnAddresses } from '@/modules/platform/scrape/read/index.ts';
import { addressPatternRegex } from '../address-pattern.ts';
import type { IndexWriter } from '../index/index-writer.ts';
import type { CapturedMessage } from '../index/stored-message.ts';
import { advance, isAfter, selectorAfter, START, type HighWaterMark } from './high-water-mark.ts';
import { sampledMessageOf } from './sampled-message.ts';

const PAGE_SIZE = 200;
const PAGES_PER_PASS = 5;

interface SampledQueue {
  readonly subscriptionId: string;
  readonly nodeId: string;
  readonly address: string;
  readonly queue: string;
  readonly routingType: 'ANYCAST' | 'MULTICAST';
}

export interface SamplerDependencies {
  readonly pool: Pool;
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly settings: SettingsReader;
  readonly writer: Pick<IndexWriter, 'accept'>;
}

export class Sampler {
  private readonly marks = new Map<string, HighWaterMark>();

  constructor(private readonly dependencies: SamplerDependencies) {}

  /** One pass over a cluster's sampled queues; how many messages it indexed. */
  async pass(clusterId: string): Promise<number> {
    const { prisma } = this.dependencies;
    const subscriptions = await prisma.sqlSubscription.findMany({ where: { clusterId, mode: 'SAMPLE' } });
    if (subscriptions.length === 0) return 0;
    const targets = await loadCommandTargets(prisma, clusterId);
    if (!targets) return 0;
    // Each sampled queue where the last sweep saw it: a queue need not be on every node.
    const queues: SampledQueue[] = [];
    const missing: string[] = [];
    for (const subscription of subscriptions) {
      const listed = await readQueuesOnAddresses(this.dependencies.db, {
        clusterId,
        addressRegex: addressPatternRegex(subscription.address),
        limit: 1_000,
      });
      const found = listed.queues.filter((row) => row.queueName === subscription.queue);
      if (found.length === 0) missing.push(subscription.id);
      for (const row of found)
        queues.push({
          subscriptionId: subscription.id,
          nodeId: row.nodeId,
          address: row.address,
          queue: row.queueName,
          routingType: row.routingType,
        });
    }
    await this.setState(missing, 'FAILED', 'The queue is not on any node of the cluster (as of the last sweep).');
    const limits = managementLimitsOf(this.dependencies.settings);
    let indexed = 0;
    const failures = new Map<string, string>();
    for (const target of targets.targets) {
      const onNode = queues.filter((queue) => queue.nodeId === target.nodeId);
      if (onNode.length === 0) continue;
      const client = managementClientFor(target.nodeId, target.endpoint, limits);
      try {
        indexed += await this.sampleNode(clusterId, target, client, onNode, failures);
      } catch (error) {
        for (const queue of onNode) failures.set(queue.subscriptionId, `${target.nodeName}: ${messageOf(error)}`);
      }
    }
    const ok = [...new Set(queues.map((queue) => queue.subscriptionId))].filter((id) => !failures.has(id));
    await this.setState(ok, 'ACTIVE', null);
    for (const [id, error] of failures) await this.setState([id], 'FAILED', error);
    return indexed;
  }

  private async sampleNode(
    clusterId: string,
    target: { nodeId: string; nodeName: string },
    client: ReturnType<typeof managementClientFor>,
    queues: readonly SampledQueue[],
    failures: Map<string, string>,
  ): Promise<number> {
    let indexed = 0;
    // Queues with the same mark share a filter; each queue's page goes in the node's one POST per page.
    let remaining = [...queues];
    for (let page = 1; page <= PAGES_PER_PASS && remaining.length > 0; page += 1) {
      const next: SampledQueue[] = [];
      const byFilter = new Map<string | undefined, SampledQueue[]>();
      for (const queue of remaining) {
        const filter = selectorAfter(await this.markOf(queue.subscriptionId, target.nodeId));
        byFilter.set(filter, [...(byFilter.get(filter) ?? []), queue]);
      }
      for (const [filter, group] of byFilter) {
        const refs: QueueRef[] = group.map((queue) => ({
          address: queue.address,
          queue: queue.queue,
          routingType: queue.routingType,
        }));
        const results = await browseQueues(client, refs, { page, pageSize: PAGE_SIZE, filter });
        const seenAt = new Date();
        for (const [index, result] of results.entries()) {
          const queue = group[index];
          if (!queue) continue;
          if (!result.ok) {
            failures.set(queue.subscriptionId, `${target.nodeName}: ${result.error.message}`);
            continue;
          }
          const key = `${queue.subscriptionId}/${target.nodeId}`;
          let mark = await this.markOf(queue.subscriptionId, target.nodeId);
          const fresh: CapturedMessage[] = [];
          for (const message of result.messages) {
            const timestamp = typeof message.raw.timestamp === 'number' ? message.raw.timestamp : 0;
            if (!isAfter(mark, timestamp, message.messageId)) continue;
            fresh.push(
              sampledMessageOf(
                {
                  clusterId,
                  nodeId: target.nodeId,
                  nodeName: target.nodeName,
                  address: queue.address,
                  queue: queue.queue,
                  subscriptionId: queue.subscriptionId,
                },
                message.messageId,
                message.raw,
                seenAt,
              ),
            );
          }
          await this.dependencies.writer.accept(fresh);
          // The mark moves only over what is committed, in browse order (oldest first in the queue).
          for (const message of result.messages)
            mark = advance(
              mark,
              typeof message.raw.timestamp === 'number' ? message.raw.timestamp : 0,
              message.messageId,
            );
          this.marks.set(key, mark);
          indexed += fresh.length;
          if (result.messages.length === PAGE_SIZE) next.push(queue);
        }
      }
      remaining = next;
    }
    return indexed;
  }

  /**
   * The mark kept in memory; after a restart, the newest message time indexed for the queue on the node, without an
   * id: the messages of that one millisecond are indexed again rather than risk losing one (ids are stored governed).
   */
  private async markOf(subscriptionId: string, nodeId: string): Promise<HighWaterMark> {
    const key = `${subscriptionId}/${nodeId}`;
    const kept = this.marks.get(key);
    if (kept) return kept;
    const { rows } = await this.dependencies.pool.query<{ newest: Date | null }>(
      `SELECT max(message_time) AS newest FROM message_index WHERE subscription_id = $1 AND node_id = $2`,
      [subscriptionId, nodeId],
    );
    const newest = rows[0]?.newest;
    const mark = newest ? { timestamp: newest.getTime(), messageId: null } : START;
    this.marks.set(key, mark);
    return mark;
  }

  private async setState(ids: readonly string[], state: 'ACTIVE' | 'FAILED', error: string | null): Promise<void> {
    if (ids.length === 0) return;
    await this.dependencies.pool.query(
      `UPDATE sql_subscription SET state = $2, last_error = $3, state_changed_at = now()
        WHERE id = ANY($1) AND (state IS DISTINCT FROM $2 OR last_error IS DISTINCT FROM $3)`,
      [ids, state, error],
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
