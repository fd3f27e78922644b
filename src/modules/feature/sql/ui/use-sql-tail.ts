'use client';
// The tail: rows as they arrive over server-sent events. EventSource reconnects by itself and sends the last row's
// id (Last-Event-ID), so the server resumes after it; while it does, the screen says it is reconnecting. Paused, rows
// are held, not dropped, and shown on resume. The view keeps the newest MAX_ROWS and says how many older ones it let go.
// A tail the server refuses outright (a syntax error) is read once more as JSON for its problem.
import { useEffect, useRef, useState } from 'react';
import type { Bound } from './answer-notes.tsx';
import type { ResultRow } from './result-table.tsx';
import { tailUrl } from './sql-paths.ts';

const MAX_ROWS = 2_000;

type TailState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface SqlTail {
  readonly state: TailState;
  readonly rows: readonly ResultRow[];
  readonly columns: readonly string[];
  readonly dropped: number;
  readonly notices: readonly string[];
  readonly bounds: readonly Bound[];
  readonly paused: boolean;
  readonly held: number;
  readonly setPaused: (paused: boolean) => void;
  /** Why the server refused the tail, as a problem the console's views read (`error.data.problem`). */
  readonly error: unknown;
  /** The last read of the tail that failed (it goes on reading). */
  readonly lastFailure: string | undefined;
}

interface Received {
  rows: ResultRow[];
  columns: string[];
  dropped: number;
  notices: string[];
  bounds: Bound[];
}

const EMPTY: Received = { rows: [], columns: [], dropped: 0, notices: [], bounds: [] };

/** Newest first, at most MAX_ROWS; the columns are every key seen, in the order first seen. */
function appended(current: Received, incoming: readonly ResultRow[]): Received {
  if (incoming.length === 0) return current;
  const all = [...[...incoming].reverse(), ...current.rows];
  const columns = [...current.columns];
  for (const row of incoming) for (const key of Object.keys(row.values)) if (!columns.includes(key)) columns.push(key);
  return {
    ...current,
    rows: all.slice(0, MAX_ROWS),
    columns,
    dropped: current.dropped + Math.max(0, all.length - MAX_ROWS),
  };
}

async function refusalOf(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { Accept: 'application/json' } }).catch(() => undefined);
  if (!response || response.ok) return undefined;
  const problem: unknown = await response.json().catch(() => undefined);
  return { data: { problem: problem ?? { type: 'http-error', title: `HTTP ${response.status}` } } };
}

interface Stream {
  /** Which tail this is: a new query, source or cluster starts afresh. */
  readonly key: string;
  readonly state: TailState;
  readonly received: Received;
  readonly held: readonly ResultRow[];
  readonly error: unknown;
  readonly lastFailure: string | undefined;
}

const fresh = (key: string): Stream => ({
  key,
  state: 'connecting',
  received: EMPTY,
  held: [],
  error: undefined,
  lastFailure: undefined,
});

/** A notice's data is a JSON string; plain text is taken as it is. */
function textOf(data: string): string {
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'string' ? parsed : data;
  } catch {
    return data;
  }
}

export function useSqlTail(clusterId: string, sql: string, of: 'index' | 'live', enabled: boolean): SqlTail {
  const key = enabled && sql ? tailUrl(clusterId, sql, of) : '';
  const [stream, setStream] = useState<Stream>(() => fresh(key));
  const [paused, setPausedState] = useState(false);
  const pausedRef = useRef(false);
  const current = stream.key === key ? stream : fresh(key);

  useEffect(() => {
    if (!key) return undefined;
    // Every change is made to this tail's own state; one left over from the tail before starts afresh.
    const change = (update: (stream: Stream) => Partial<Stream>) =>
      setStream((previous) => {
        const base = previous.key === key ? previous : fresh(key);
        return { ...base, ...update(base) };
      });
    const source = new EventSource(key);
    source.onopen = () => change(() => ({ state: 'open' }));
    source.onerror = () => {
      if (source.readyState === EventSource.CONNECTING) {
        change(() => ({ state: 'reconnecting' }));
        return;
      }
      change(() => ({ state: 'closed' }));
      void refusalOf(key).then((refusal) => change(() => ({ error: refusal })));
    };
    source.addEventListener('row', (event: MessageEvent<string>) => {
      const row: ResultRow = {
        key: event.lastEventId || String(Date.now()),
        values: JSON.parse(event.data) as Record<string, unknown>,
      };
      if (pausedRef.current) change((base) => ({ held: [...base.held, row] }));
      else change((base) => ({ received: appended(base.received, [row]) }));
    });
    source.addEventListener('notice', (event: MessageEvent<string>) => {
      const notice = textOf(event.data);
      change((base) =>
        base.received.notices.includes(notice)
          ? {}
          : { received: { ...base.received, notices: [...base.received.notices, notice] } },
      );
    });
    // A read of the tail failed; the tail goes on and reads again.
    source.addEventListener('problem', (event: MessageEvent<string>) => {
      const { detail } = JSON.parse(event.data) as { detail?: string };
      change(() => ({ lastFailure: detail ?? 'no reason given' }));
    });
    source.addEventListener('bound', (event: MessageEvent<string>) => {
      const bound = JSON.parse(event.data) as Bound;
      change((base) => ({
        received: { ...base.received, bounds: [...base.received.bounds.filter((b) => b.bound !== bound.bound), bound] },
      }));
    });
    return () => source.close();
  }, [key]);

  const setPaused = (next: boolean) => {
    pausedRef.current = next;
    setPausedState(next);
    if (!next)
      setStream((previous) => ({ ...previous, received: appended(previous.received, previous.held), held: [] }));
  };

  return {
    state: current.state,
    ...current.received,
    paused,
    held: current.held.length,
    setPaused,
    error: current.error,
    lastFailure: current.lastFailure,
  };
}
