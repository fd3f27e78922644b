// The live tail over server-sent events: new rows of the message index as the capture and the sampler commit them
// (woken by the bus, with Last-Event-ID replay of up to 500 rows, like the events topic), or new messages of a live
// read repeated every sampling interval (a sampled source: it says, permanently, what it cannot see).
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database } from '@/base/db/database.ts';
import type { QueryBounds } from '../bounds.ts';
import { readIndex } from '../index/index-reader.ts';
import { SQL_INDEX_CHANNEL, type IndexAppended } from '../index/index-channel.ts';
import type { LiveReadRuntime } from '../live/live-read.ts';
import { readLive } from '../live/live-read.ts';
import type { QueryPlan } from '../query/plan.ts';
import { selectedColumns } from '../run-query.ts';

/** Rows replayed at most after a reconnect (as the events topic replays). */
const TAIL_REPLAY_LIMIT = 500;
/** Rows sent per wake-up at most; the next wake-up goes on from there. */
const ROWS_PER_READ = 500;
/** A wake-up the bus missed (a reconnect) is made good by reading on this cadence too. */
const FALLBACK_READ_MS = 5_000;
const KEEP_ALIVE_MS = 20_000;
/** Messages a live tail remembers having sent, so a message still in its queue is sent once. */
const LIVE_SEEN_LIMIT = 50_000;

export interface TailRuntime extends LiveReadRuntime {
  readonly db: Database;
  readonly bus: DatabaseBus;
}

export interface TailRequest {
  readonly clusterId: string;
  readonly plan: QueryPlan;
  readonly source: 'index' | 'live';
  readonly clear: boolean;
  readonly bounds: QueryBounds;
  readonly lastEventId: number | undefined;
  readonly notices: readonly string[];
  readonly sampleIntervalMs: number;
}

type Send = (event: { event: string; data: unknown; id?: string }) => void;

function frame(event: { event: string; data: unknown; id?: string }): string {
  const lines = [`event: ${event.event}`];
  if (event.id !== undefined) lines.push(`id: ${event.id}`);
  lines.push(`data: ${JSON.stringify(event.data)}`);
  return `${lines.join('\n')}\n\n`;
}

async function latestSeq(db: Database, clusterId: string): Promise<number | undefined> {
  const [row] = await db.query<{ seq: string | null }>(
    'SELECT max(seq)::text AS seq FROM message_index WHERE cluster_id = $1',
    [clusterId],
  );
  return row?.seq ? Number(row.seq) : undefined;
}

function clusterOf(payload: string): string | undefined {
  try {
    return (JSON.parse(payload) as Partial<IndexAppended>).clusterId;
  } catch {
    return undefined;
  }
}

/** Follows the index from `lastEventId` (or from now); returns the stop function. */
function followIndex(runtime: TailRuntime, request: TailRequest, send: Send): () => void {
  let after: number | undefined = request.lastEventId;
  let replaying = request.lastEventId !== undefined;
  let reading = false;
  let again = false;
  const life = { stopped: false };
  const isStopped = () => life.stopped;
  const read = async () => {
    if (isStopped()) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        if (after === undefined) {
          after = (await latestSeq(runtime.db, request.clusterId)) ?? 0;
          continue;
        }
        const answer = await readIndex(runtime.db, {
          clusterId: request.clusterId,
          plan: { ...request.plan, orderBy: [], limit: null },
          bounds: { ...request.bounds, rowCap: replaying ? TAIL_REPLAY_LIMIT : ROWS_PER_READ },
          afterSeq: after,
        });
        for (const row of answer.rows)
          if (!isStopped()) send({ event: 'row', id: String(row.seq), data: selectedColumns(request.plan, row) });
        if (replaying && answer.rows.length >= TAIL_REPLAY_LIMIT) {
          // Replay is bounded like the events topic's: past 500 missed rows the tail goes on from now and says so.
          send({
            event: 'notice',
            data: `More than ${String(TAIL_REPLAY_LIMIT)} rows came while you were away; the tail shows the first ${String(TAIL_REPLAY_LIMIT)} and goes on from now. Query the index for the rest.`,
          });
          after = (await latestSeq(runtime.db, request.clusterId)) ?? after;
          replaying = false;
          continue;
        }
        replaying = false;
        if (answer.lastSeq !== null && answer.lastSeq > after) {
          after = answer.lastSeq;
          if (answer.rows.length >= ROWS_PER_READ) again = true;
        }
        for (const bound of answer.bounds) if (bound.bound === 'timeout') send({ event: 'bound', data: bound });
      } while (again && !isStopped());
    } catch (error) {
      send({ event: 'problem', data: { detail: error instanceof Error ? error.message : String(error) } });
    } finally {
      reading = false;
    }
  };
  const unlisten = runtime.bus.listen(SQL_INDEX_CHANNEL, (payload) => {
    if (clusterOf(payload) === request.clusterId) void read();
  });
  const fallback = setInterval(() => void read(), FALLBACK_READ_MS);
  void read();
  return () => {
    life.stopped = true;
    unlisten();
    clearInterval(fallback);
  };
}

/** Repeats the live read every sampling interval and sends the messages not sent before. */
function followLive(runtime: TailRuntime, request: TailRequest, send: Send): () => void {
  const seen = new Set<string>();
  let counter = request.lastEventId ?? 0;
  const life = { stopped: false };
  const isStopped = () => life.stopped;
  let timer: NodeJS.Timeout | undefined;
  const poll = async () => {
    if (isStopped()) return;
    try {
      const answer = await readLive(runtime, {
        clusterId: request.clusterId,
        plan: { ...request.plan, orderBy: [], limit: null },
        clear: request.clear,
        bounds: request.bounds,
      });
      for (const row of answer.rows) {
        const key = `${row.node}\u0000${row.queue ?? ''}\u0000${row.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (seen.size > LIVE_SEEN_LIMIT) seen.delete(seen.values().next().value as string);
        counter += 1;
        send({ event: 'row', id: String(counter), data: selectedColumns(request.plan, row) });
      }
      for (const bound of answer.bounds) send({ event: 'bound', data: bound });
    } catch (error) {
      send({ event: 'problem', data: { detail: error instanceof Error ? error.message : String(error) } });
    }
    if (!isStopped()) timer = setTimeout(() => void poll(), request.sampleIntervalMs);
  };
  void poll();
  return () => {
    life.stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/** The response: notices first, then rows as they come, a `:ping` comment every 20 s, until the client leaves. */
export function openTail(runtime: TailRuntime, request: TailRequest, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let stop: () => void = () => undefined;
  let keepAlive: NodeJS.Timeout | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          closed = true;
        }
      };
      const send: Send = (event) => write(frame(event));
      write('retry: 3000\n\n');
      for (const notice of request.notices) send({ event: 'notice', data: notice });
      stop = request.source === 'index' ? followIndex(runtime, request, send) : followLive(runtime, request, send);
      keepAlive = setInterval(() => write(':ping\n\n'), KEEP_ALIVE_MS);
      const end = () => {
        if (closed) return;
        closed = true;
        stop();
        clearInterval(keepAlive);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      signal.addEventListener('abort', end, { once: true });
    },
    cancel() {
      stop();
      clearInterval(keepAlive);
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
