// Browse one node's copy of a queue. The native channel while the worker's notification subscription of the node
// is live (whole bodies, typed properties, no truncation); the management channel for a filter, a page beyond the
// native window, or when the native channel is not there or fails (the answer says why). Every answer names the
// channel that served it; management answers flag each message the broker cut and carry the snippet that raises
// the limit. Everything passes through the content policy before it leaves.
import type { Database, PrismaClient } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import { ProblemError, type InternalNotifications } from '@/modules/kernel/core/index.ts';
import {
  browseNatively,
  browseOverManagement,
  readManagementLimits,
  type QueueRef,
} from '@/modules/platform/broker/index.ts';
import { loadCommandTargets, managementClientFor, nodeFailureOf } from '@/modules/platform/clusters/index.ts';
import { governFields } from '@/modules/platform/governance/index.ts';
import { fromManagement, fromNative, viewMessages, type MessageView } from './message-view.ts';

export interface BrowseRuntime {
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly bus: DatabaseBus;
  readonly notifications: InternalNotifications;
  readonly settings: { value(key: string): unknown };
}

export interface BrowseInput {
  readonly clusterId: string;
  readonly ref: QueueRef;
  readonly nodeId?: string | undefined;
  readonly page: number;
  readonly pageSize: number;
  readonly filter?: string | undefined;
  readonly clear: boolean;
}

export interface BrowseAnswer {
  readonly channel: 'native' | 'management';
  /** Why the management channel served a browse the native one could not (absent when native served it). */
  readonly channelReason: string | null;
  readonly nodeId: string;
  readonly nodeName: string;
  readonly page: number;
  readonly pageSize: number;
  readonly hasMore: boolean;
  readonly messages: MessageView[];
  readonly raiseLimitSnippet: string | null;
  readonly attributeSizeLimit: number | null;
  readonly policyVersion: number;
  readonly fetchedAt: string;
}

function browseFailed(nodeName: string, error: unknown, url: string): ProblemError {
  const failure = nodeFailureOf(error, url);
  return new ProblemError({
    type: 'live-read-failed',
    title: 'The node did not answer the browse',
    status: 502,
    detail: `${nodeName}: ${failure.kind} (${failure.message}). ${failure.advice}`,
    configSnippet: failure.configSnippet,
  });
}

export async function browseMessages(
  runtime: BrowseRuntime,
  input: BrowseInput,
): Promise<BrowseAnswer & { governed: Awaited<ReturnType<typeof viewMessages>>['governed'] }> {
  const found = await loadCommandTargets(runtime.prisma, input.clusterId, input.nodeId);
  const target = found?.targets[0];
  if (!target)
    throw new ProblemError({
      type: 'not-found',
      title: 'Not found',
      status: 404,
      detail: 'No serving node to browse.',
    });
  const offset = (input.page - 1) * input.pageSize;
  const filter = input.filter?.trim() ? input.filter : undefined;
  const base = { nodeId: target.nodeId, nodeName: target.nodeName, page: input.page, pageSize: input.pageSize };

  let reason: string;
  if (filter) reason = 'a filter is evaluated by the broker over the management channel';
  else if (!target.subscriptionLive) reason = 'the notification subscription of this node is not live';
  else {
    try {
      const page = await browseNatively(target.native(), {
        queue: input.ref.queue,
        ...(input.ref.routingType === 'MULTICAST' ? { address: input.ref.address } : {}),
        offset,
        limit: input.pageSize,
      });
      const { views, governed } = await viewMessages(
        runtime,
        page.messages.map((message) => fromNative(message, input.ref.address)),
        input.clear,
      );
      return {
        ...base,
        channel: 'native',
        channelReason: null,
        hasMore: page.hasMore,
        messages: views,
        raiseLimitSnippet: null,
        attributeSizeLimit: null,
        policyVersion: governed[0]?.policyVersion ?? 0,
        fetchedAt: new Date().toISOString(),
        governed,
      };
    } catch (error) {
      reason = `the native channel failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  const limits = readManagementLimits((key) => runtime.settings.value(key));
  const client = managementClientFor(target.nodeId, target.endpoint, limits);
  let result;
  try {
    result = await browseOverManagement(client, input.ref, { page: input.page, pageSize: input.pageSize, filter });
  } catch (error) {
    throw browseFailed(target.nodeName, error, target.endpoint.url);
  }
  const { views, governed } = await viewMessages(
    runtime,
    result.messages.map((message) => fromManagement(message, input.ref.address)),
    input.clear,
  );
  // The snippet names the address, which may carry content like any name (it is in clear only for a clear view).
  const [snippet] = (
    await governFields(runtime, [{ text: result.raiseLimitSnippet ?? null }], ['text'], { clear: input.clear })
  ).rows;
  return {
    ...base,
    channel: 'management',
    channelReason: reason,
    // The broker gives no total with a page: a full page may have more behind it.
    hasMore: result.messages.length === input.pageSize,
    messages: views,
    raiseLimitSnippet: snippet?.text ?? null,
    attributeSizeLimit: result.attributeSizeLimit ?? null,
    policyVersion: governed[0]?.policyVersion ?? 0,
    fetchedAt: new Date().toISOString(),
    governed,
  };
}
