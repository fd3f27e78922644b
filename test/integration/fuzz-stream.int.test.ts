// Fuzzing of the stream endpoint (issue 34): GET /api/v1/stream through its real route handler (the one Next.js
// serves) on a real PostgreSQL, with query strings and Last-Event-ID headers fast-check makes — cluster ids known
// and not, the installation scope, topics known, unknown, repeated and empty, parameters given twice or unknown,
// bad percent-encoding, huge, negative, unicode and garbage Last-Event-IDs, and card numbers, IBANs and JWTs
// anywhere — as an admin, a viewer granted one cluster and no one; a third of the callers hang up before the answer
// and never read it. Every answer: a 200 event stream that opens with its `ready` event (and replays broker events
// governed, never a seeded value in clear), or problem+json of a documented type and status; never a 5xx, a stack
// trace or an internal message, never a seed in clear, not even one the request carried itself (the `ready` event
// gives a dropped topic's position, never its name); each stream ends promptly once
// the caller is gone, and when the fuzzing ends no stream, timer or error line is left behind. Seeded: FUZZ_SEED
// replays a run, FUZZ_RUNS=n runs n times the cases.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledStreamTopics, INSTALLATION_SCOPE_ID } from '@/modules/kernel/stream/index.ts';
import { createStreamHandler } from '@/server/http/stream-route.ts';
import { insertFuzzClusters } from '@test/fuzz-clusters.ts';
import {
  documentedProblems,
  FUZZ_SEED,
  FuzzRun,
  headerValue,
  internalsIn,
  piiIn,
  piiString,
  problemIssues,
  runs,
  signedInWithRole,
  stringArbitrary,
} from '@test/fuzz.ts';
import { captureLogLines, type CapturedLogs } from '@test/log-lines.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { type AuthHeaders, signIn } from '@test/sign-in.ts';

type Principal = 'admin' | 'viewer' | 'anonymous';
interface StreamCase {
  readonly principal: Principal;
  readonly query: string;
  readonly lastEventId: string | undefined;
  /** The caller hangs up before the answer comes, and never reads it. */
  readonly hangsUp: boolean;
}

/** Cases in CI; FUZZ_RUNS multiplies them. */
const CASES = runs(400);
const documented = documentedProblems(readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8'));

let secured: SecuredRuntime;
let stream: (request: Request) => Promise<Response>;
const auth: Partial<Record<Principal, AuthHeaders | Record<string, never>>> = { anonymous: {} };
let clusterIds: string[] = [];
let topics: string[] = [];
const run = new FuzzRun('fuzz-stream');
let replayed = 0;

beforeAll(async () => {
  secured = await openSecuredRuntime();
  const runtime = secured.runtime;
  stream = createStreamHandler(() => Promise.resolve(runtime));
  const { clusterId, lostKeyClusterId } = await insertFuzzClusters(runtime.prisma);
  // The cluster with broker events to replay twice as often as the others.
  clusterIds = [clusterId, clusterId, lostKeyClusterId, INSTALLATION_SCOPE_ID, randomUUID()];
  topics = [...(await enabledStreamTopics(runtime.registry, runtime.bus))];
  // A viewer granted the fuzz cluster only: the other one answers the guard's 404.
  auth.viewer = await signedInWithRole(secured, { username: 'sia', role: 'viewer', clusterId });
  auth.admin = await signIn(secured.rest, 'http://127.0.0.1');
  // Broker events a Last-Event-ID replays, with personal data in every field that can hold it (stored as rows from
  // before masking were: the replay must govern them on the way out), one property not in its typed form (a row
  // written outside Flotilla: governed as text all the same).
  const node = await runtime.prisma.clusterNode.findFirstOrThrow({ where: { clusterId } });
  await runtime.prisma.brokerEvent.createMany({
    data: ['4111111111111111', 'DE89370400440532013000', '5555 5555 5555 4444'].map((seed, index) => ({
      clusterId,
      nodeId: node.id,
      logicalNode: `node:${node.id}`,
      kind: 'CONSUMER_CREATED',
      address: `orders.${seed}`,
      queue: `orders.${seed}`,
      username: `pan ${seed}`,
      properties: {
        _AMQ_FilterString: { type: 'string', value: `pan = '${seed}'` },
        note: { type: 'string', value: `ref ${seed}` },
        bare: `ref ${seed}`,
      },
      brokerTime: new Date(Date.UTC(2026, 11, 6, 8, index)),
      receivedAt: new Date(Date.UTC(2026, 11, 6, 8, index)),
    })),
  });
}, 60_000);

afterAll(async () => {
  await (secured as SecuredRuntime | undefined)?.close();
});

/** A query parameter's value, encoded as a browser would, or raw (bad percent-encoding among it). */
const encoded = (value: string) => encodeURIComponent(value);

function caseArbitrary(): fc.Arbitrary<StreamCase> {
  const clusterId = fc.oneof(
    { arbitrary: fc.constantFrom(...clusterIds), weight: 8 },
    { arbitrary: fc.constantFrom(clusterIds[0]?.toUpperCase() ?? '', ` ${clusterIds[0]}`, '42', ''), weight: 1 },
    { arbitrary: stringArbitrary({ maxLength: 400 }), weight: 1 },
  );
  const topic = fc.oneof(
    // The topic with a replay (Last-Event-ID) three times as often as any other.
    { arbitrary: fc.constantFrom(...topics, 'events', 'events'), weight: 6 },
    {
      arbitrary: fc.constantFrom('', ' ', ',', 'EVENTS', 'events ', 'replay-truncated', 'ready', '__proto__'),
      weight: 1,
    },
    { arbitrary: stringArbitrary({ maxLength: 100 }), weight: 1 },
  );
  const topicList = fc.array(topic, { minLength: 0, maxLength: 6 }).map((list) => list.join(','));
  const parameter = (name: string, value: fc.Arbitrary<string>) =>
    value.map((one) => `${encoded(name)}=${encoded(one)}`);
  const extras = fc.array(
    fc.oneof(
      parameter('clusterId', clusterId),
      parameter('topics', topicList),
      fc
        .tuple(stringArbitrary({ maxLength: 20 }), stringArbitrary({ maxLength: 60 }))
        .map(([name, value]) => `${encoded(name)}=${encoded(value)}`),
      // Raw: bad percent-encoding, separators, a parameter with no value.
      fc.constantFrom('%', '%E0%A4%A', 'topics', 'clusterId=', '&&', '=', 'topics=%00', 'x=%ZZ', 'topics=a%2Cb'),
      piiString.map((seed) => `ref=${encoded(seed)}`),
    ),
    { maxLength: 2 },
  );
  const query = fc
    .record({
      clusterId: fc.option(parameter('clusterId', clusterId), { freq: 10, nil: undefined }),
      topics: fc.option(parameter('topics', topicList), { freq: 10, nil: undefined }),
      extras: fc.oneof({ arbitrary: fc.constant([]), weight: 4 }, { arbitrary: extras, weight: 1 }),
      order: fc.boolean(),
    })
    .map(({ clusterId: id, topics: list, extras: more, order }) => {
      const parts = [id, list].filter((part): part is string => part !== undefined);
      if (order) parts.reverse();
      return [...parts, ...more].join('&');
    });
  const lastEventId = fc.option(
    fc.oneof(
      { arbitrary: fc.constantFrom('0', '1', '2'), weight: 4 },
      fc.constantFrom('-1', 'a0', 'a1', 'a-1', '1e3', '0x10', ' 1', '1.5', 'NaN', '9007199254740993'),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
      fc.constant('9'.repeat(10_000)),
      stringArbitrary({ maxLength: 300 }),
      piiString,
    ),
    { freq: 2, nil: undefined },
  );
  return fc.record({
    principal: fc.constantFrom<Principal>('admin', 'admin', 'viewer', 'viewer', 'anonymous'),
    query,
    lastEventId: lastEventId.map((value) => (value === undefined ? undefined : headerValue(value))),
    hangsUp: fc.boolean().chain((hangs) => (hangs ? fc.boolean() : fc.constant(false))),
  });
}

/** The read, or undefined when the time is up first; the timer is cleared either way (timers are counted). */
async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
): Promise<ReadableStreamReadResult<Uint8Array> | undefined> {
  let timer: NodeJS.Timeout | number | undefined;
  try {
    return await Promise.race([
      reader.read().catch(() => ({ done: true as const, value: undefined })),
      new Promise<undefined>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms)))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads until the first event ends (a blank line), the stream ends or the time is up. */
async function firstEvent(reader: ReadableStreamDefaultReader<Uint8Array>, timeoutMs: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  while (!text.includes('\n\n') && Date.now() < deadline) {
    const chunk = await readWithin(reader, deadline - Date.now());
    if (!chunk || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text;
}

/** Reads what the stream still gives after the caller hung up; whether it ended within the time. */
async function endsWithin(reader: ReadableStreamDefaultReader<Uint8Array>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await readWithin(reader, deadline - Date.now()))?.done) return true;
  }
  return false;
}

async function check(request: StreamCase): Promise<void> {
  run.cases++;
  const headers: Record<string, string> = { ...auth[request.principal] };
  if (request.lastEventId !== undefined) headers['last-event-id'] = request.lastEventId;
  const controller = new AbortController();
  const url = `http://127.0.0.1/api/v1/stream?${request.query}`;
  const where = `${request.principal}${request.hangsUp ? ' (hangs up)' : ''} ?${request.query.slice(0, 300)} last-event-id=${String(request.lastEventId).slice(0, 60)}`;
  const problems: string[] = [];
  if (request.hangsUp) controller.abort();
  const response = await stream(new Request(url, { headers, signal: controller.signal }));
  let text = '';
  if (response.status === 200) {
    if (!response.headers.get('content-type')?.startsWith('text/event-stream'))
      problems.push(`a 200 of content-type ${response.headers.get('content-type')}`);
    if (request.hangsUp) {
      // The caller is gone before the answer came: the stream must not stay open for no one.
      if (secured.runtime.stream.size > 0) problems.push('a stream stays open for a caller who hung up');
      await response.body?.cancel();
    } else {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      text = await firstEvent(reader, 2_000);
      if (!text.startsWith('retry: 3000\nevent: ready\ndata: ')) problems.push(`opened with ${text.slice(0, 200)}`);
      else {
        const ready = JSON.parse(text.slice(text.indexOf('data: ') + 6, text.indexOf('\n\n'))) as { topics: string[] };
        if (ready.topics.some((topic) => !topics.includes(topic)))
          problems.push(`subscribed to ${ready.topics.join(',')}`);
      }
      // Replayed events come next when the Last-Event-ID is a position in the events: read them too, for seeds.
      if (/^\d{1,3}$/.test(request.lastEventId ?? '') && request.query.includes('events'))
        for (let read = 0; read < 4; read++) text += await firstEvent(reader, 500);
      if (text.includes('\nevent: events\n')) replayed++;
      controller.abort();
      if (!(await endsWithin(reader, 1_000))) problems.push('the stream did not end within 1 s of the hang-up');
      reader.releaseLock();
    }
    run.answered('200');
  } else {
    text = await response.text();
    const { problem, issues } = problemIssues(response, text, documented);
    run.answered(`${response.status} ${String(problem?.type)}`);
    problems.push(...issues);
  }
  if (secured.runtime.stream.size > 0) problems.push(`${secured.runtime.stream.size} streams left open`);
  const internals = internalsIn(text);
  if (internals.length > 0) problems.push(`carries ${internals.join(', ')}: ${text.slice(0, 400)}`);
  // Personal data: none in clear, not even what this request carried itself (an unknown topic, a parameter's name).
  for (const kind of piiIn(text)) problems.push(`a seeded ${kind} in clear: ${text.slice(0, 400)}`);
  run.found(`${where} → ${response.status}`, problems);
}

function timers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

describe('stream fuzzing: query strings and Last-Event-ID', () => {
  let logs: CapturedLogs | undefined;

  it('answers every generated request with a stream or a problem, never a 5xx or a leak, and ends each', async () => {
    expect(topics).toContain('events');
    const timersBefore = timers();
    logs = captureLogLines();
    run.begin();
    try {
      await fc.assert(fc.asyncProperty(caseArbitrary(), check), { seed: FUZZ_SEED, numRuns: CASES });
    } finally {
      logs.restore();
    }
    run.report(`(requests), ${replayed} of them replaying broker events,`);
    expect(run.findings.slice(0, 30), `${run.findings.length} findings (seed ${FUZZ_SEED})`).toEqual([]);
    // Streams were opened, refused for their input and for their caller, and events replayed.
    expect(run.answers.get('200') ?? 0).toBeGreaterThan(run.cases / 10);
    expect(run.answers.get('400 validation-failed') ?? 0).toBeGreaterThan(0);
    expect(run.answers.get('401 unauthenticated') ?? 0).toBeGreaterThan(0);
    expect(run.answers.get('404 cluster-not-found') ?? 0).toBeGreaterThan(0);
    expect(replayed).toBeGreaterThan(0);
    expect(secured.runtime.stream.size).toBe(0);
    // No ping timer left behind (the runtime's own timers come and go: a little slack, not one per stream).
    expect(timers()).toBeLessThanOrEqual(timersBefore + 3);
    // Nothing failed out of sight (a replay that threw, a stream that could not close).
    // The stream's own modules only: a worker shares its process with the files before this one, and a runtime
    // one of them left behind may log about its own (dropped) database meanwhile.
    const errors = logs
      .lines()
      .filter(
        (line) =>
          (line.level === 'error' || line.level === 'fatal') && ['stream', 'events'].includes(line.module ?? ''),
      );
    expect(
      errors.map((line) => `${line.module} ${line.msg}: ${(line.err as { message?: string } | undefined)?.message}`),
    ).toEqual([]);
  }, 300_000);

  it('replays the broker events after a Last-Event-ID governed: no seed in clear', async () => {
    const controller = new AbortController();
    const response = await stream(
      new Request(`http://127.0.0.1/api/v1/stream?clusterId=${clusterIds[0]}&topics=events`, {
        headers: { ...auth.viewer, 'last-event-id': '0' },
        signal: controller.signal,
      }),
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    for (let read = 0; read < 8 && (text.match(/event: events\n/g) ?? []).length < 3; read++)
      text += await firstEvent(reader, 2_000);
    controller.abort();
    reader.releaseLock();
    expect(text.match(/event: events\n/g)).toHaveLength(3);
    expect(piiIn(text)).toEqual([]);
  });

  it('closes at once the stream of a caller who hung up before the answer, which nobody reads', async () => {
    for (const principal of ['admin', 'viewer'] as const) {
      const controller = new AbortController();
      controller.abort();
      const response = await stream(
        new Request(`http://127.0.0.1/api/v1/stream?clusterId=${clusterIds[0]}&topics=events,health`, {
          headers: { ...auth[principal], 'last-event-id': '0' },
          signal: controller.signal,
        }),
      );
      expect(response.status).toBe(200);
      // It held a place in stream.max-per-user and a ping timer until the body was cancelled, which a server whose
      // client is gone may never do.
      expect(secured.runtime.stream.size).toBe(0);
      await response.body?.cancel();
    }
  });
});
