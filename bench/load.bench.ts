// Flotilla under a console's worth of load at once (issue 34, item 7), on this machine, loopback only: a real broker
// with QUEUES queues registered in Flotilla started as `npm start` starts it (supervisor, web and worker), then for
// LOAD_MINUTES (10 by default) at the same time:
//   - 200 stream subscribers (GET /api/v1/stream, the queues and events topics of the cluster), held open: 20 viewers
//     signed in, 10 streams each (stream.max-per-user, as 20 operators with a few tabs each);
//   - 50 reads a second of the queue grid (deepest first, a page among the first ten, a search now and then);
//   - 5 writes a second, each a dry run of a purge of one queue (the write path up to its plan, audited), by 10
//     operators in turn (one alone would trip audit.flood-rows, the guard against a flood of dry runs, in 100 s);
// The load is open-loop: requests start on the clock, whatever the earlier ones are doing, so a slow server shows
// as latency, not as fewer requests. Printed: per route the count, errors, p50/p95/max; the stream subscribers that
// dropped or never opened and the messages they received; the web and worker processes' resident memory each minute;
// before the load, each route's latency alone (sequential calls), and after it the first answer of each failing status.
// Target: 0 errors; the figures go to docs/performance.md.
//   npm run bench:load                    (LOAD_MINUTES=1 for a short run; PostgreSQL: FLOTILLA_TEST_ADMIN_URL)
// LOAD_HEAP_SNAPSHOTS=<folder> starts the app with `--heapsnapshot-signal` and writes two heap snapshots of the web
// process there: with the streams open before the load, and after it once every request has been answered (a
// snapshot stops the process for many seconds, so these runs' latencies are not the bench's). Compare them in
// Chrome's DevTools (Memory, Comparison): what a request or stream left behind grows between them.
// FLOTILLA_WEB_MAX_HEAP_MB is passed on to the app (`0` runs the web process with V8's own heap limit, to compare).
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { startSingleNode, type BrokerNode } from '@test/artemis/index.ts';
import { AppProcess, descendantsOf, freePort } from '@test/app-process.ts';
import { signInOverApi, type ApiSession } from '@test/browser.ts';
import { signIn } from '@test/sign-in.ts';
import { registerSingleNodeCluster, waitForQueueScraped } from '@test/browser-cluster.ts';
import { buildIfNeeded } from '../src/server/process/build.ts';
import { reportFigure } from './report.ts';
import { createAnycastQueues, createBenchDatabase, usersWithRole } from './bench-support.ts';

const MINUTES = Number(process.env.LOAD_MINUTES ?? '10');
const VIEWERS = 20;
/** The dry runs come from this many operators in turn: each stays under audit.flood-rows (500 per 15 minutes). */
const WRITERS = 10;
const STREAMS_PER_VIEWER = 10;
const SUBSCRIBERS = VIEWERS * STREAMS_PER_VIEWER;
const READS_PER_SECOND = 50;
const WRITES_PER_SECOND = 5;
const QUEUES = 500;
/** Beyond this many requests of one kind in flight, new ones are counted as shed instead of piling up without end. */
const MAX_IN_FLIGHT = 500;

const SNAPSHOTS = process.env.LOAD_HEAP_SNAPSHOTS ? path.resolve(process.env.LOAD_HEAP_SNAPSHOTS) : undefined;

const queueName = (index: number) => `load.q${String(index).padStart(4, '0')}`;

/** The value at `share` (0.95 for p95) of ascending `sorted` times, NaN when there are none. */
const percentile = (sorted: readonly number[], share: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? NaN;

class RouteStats {
  readonly times: number[] = [];
  requests = 0;
  errors = 0;
  shed = 0;
  inFlight = 0;
  readonly statuses = new Map<number, number>();
  /** The first answer of each failing status, to say what went wrong. */
  readonly firstFailure = new Map<number, string>();

  async time(work: () => Promise<Response>): Promise<void> {
    if (this.inFlight >= MAX_IN_FLIGHT) {
      this.shed++;
      return;
    }
    this.inFlight++;
    this.requests++;
    const started = performance.now();
    try {
      const response = await work();
      const body = await response.text();
      this.statuses.set(response.status, (this.statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 400) {
        this.errors++;
        if (!this.firstFailure.has(response.status)) this.firstFailure.set(response.status, body.slice(0, 400));
      }
      this.times.push(performance.now() - started);
    } catch (error) {
      this.errors++;
      if (!this.firstFailure.has(0)) this.firstFailure.set(0, error instanceof Error ? error.message : String(error));
    } finally {
      this.inFlight--;
    }
  }

  /** The p95 of the requests answered since the `from`-th answer (a minute's worth, when the caller keeps the count). */
  p95Since(from: number): number {
    return percentile(
      this.times.slice(from).sort((a, b) => a - b),
      0.95,
    );
  }

  /** `p50, p95, max` of the answered requests, and how many there were. */
  latencies(): string {
    const sorted = [...this.times].sort((a, b) => a - b);
    const at = (share: number) => percentile(sorted, share);
    return `p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms (${String(this.times.length)} answered)`;
  }

  summary(): string {
    const sorted = [...this.times].sort((a, b) => a - b);
    const at = (share: number) => percentile(sorted, share);
    const statuses = [...this.statuses.entries()].map(([status, count]) => `${String(status)}×${String(count)}`);
    const failures = [...this.firstFailure.entries()].map(([status, body]) => `\n    first ${String(status)}: ${body}`);
    return `${String(this.requests)} requests, ${String(this.errors)} errors, ${String(this.shed)} shed; p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms (${statuses.join(' ')})${failures.join('')}`;
  }
}

/** A stream subscriber that only counts: its messages, and whether it opened and stayed open. */
class Subscriber {
  messages = 0;
  opened = false;
  dropped: string | undefined;
  private readonly abort = new AbortController();

  constructor(url: string, headers: Record<string, string>) {
    void this.run(url, headers);
  }

  private async run(url: string, headers: Record<string, string>) {
    try {
      const response = await fetch(url, {
        headers: { Accept: 'text/event-stream', ...headers },
        signal: this.abort.signal,
      });
      if (response.status !== 200 || !response.body) {
        this.dropped = `answered ${String(response.status)}`;
        return;
      }
      this.opened = true;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          if (!this.abort.signal.aborted) this.dropped = 'the server ended the stream';
          return;
        }
        this.messages += value.split('\n\n').filter((block) => block.includes('data:')).length;
      }
    } catch (error) {
      if (!this.abort.signal.aborted) this.dropped = error instanceof Error ? error.message : String(error);
    }
  }

  close() {
    this.abort.abort();
  }
}

function residentMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

/** CPU-seconds the process has used (user and system), from /proc: how much of a core the load took. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // After the command's closing parenthesis: state is field 3, utime and stime fields 14 and 15 (clock ticks, 100/s).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** The process's `--max-old-space-size` (FLOTILLA_WEB_MAX_HEAP_MB for the web process), or that it runs without. */
function heapLimitOf(pid: number): string {
  try {
    const args = readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').split('\0');
    const limit = args.find((arg) => arg.startsWith('--max-old-space-size='));
    return limit ? `heap limit ${limit.slice('--max-old-space-size='.length)} MB` : "V8's own heap limit";
  } catch {
    return 'heap limit unknown';
  }
}

/** The web and worker processes under the supervisor, by their entry file. */
function appProcesses(app: AppProcess): { web?: number; worker?: number } {
  const found: { web?: number; worker?: number } = {};
  for (const info of descendantsOf(app.child.pid ?? -1)) {
    const line = info.args;
    if (line.includes('web-main')) found.web = info.pid;
    else if (line.includes('worker/main') || line.includes('worker-main')) found.worker = info.pid;
  }
  return found;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks the web process for a heap snapshot (it was started with `--heapsnapshot-signal=SIGUSR2`) and returns its file
 * once written: the process writes it on its main thread, so the file is whole when its size stops changing and the
 * process answers again.
 */
async function heapSnapshot(folder: string, pid: number, baseUrl: string): Promise<string> {
  const before = new Set(readdirSync(folder));
  process.kill(pid, 'SIGUSR2');
  let file: string | undefined;
  let size = -1;
  for (;;) {
    await pause(2_000);
    file ??= readdirSync(folder).find((name) => !before.has(name) && name.endsWith('.heapsnapshot'));
    if (!file) continue;
    const now = statSync(path.join(folder, file)).size;
    if (now > 0 && now === size && (await fetch(`${baseUrl}/actuator/health/liveness`)).ok) break;
    size = now;
  }
  const written = path.join(folder, file);
  console.log(`heap snapshot of the web process: ${written} (${(size / 1024 / 1024).toFixed(0)} MB of file)`);
  return written;
}

/** `count` users holding a built-in role everywhere, made and signed in over the API as an admin would. */
async function signedInUsersWithRole(
  baseUrl: string,
  api: ApiSession,
  roleName: 'viewer' | 'operator',
  count: number,
): Promise<Record<string, string>[]> {
  const users = await usersWithRole(baseUrl, api.headers, roleName, count, (index) => {
    return `Load-bench ${roleName} ${String(index)} pass`;
  });
  const sessions: Record<string, string>[] = [];
  for (const credentials of users)
    sessions.push({ ...(await signIn((request) => fetch(request), baseUrl, credentials)) });
  return sessions;
}

buildIfNeeded(process.cwd());
const broker = await startSingleNode({ maxHeap: '1G' });
const node = broker.nodes[0] as BrokerNode;
const database = await createBenchDatabase();
let app: AppProcess | undefined;
const subscribers: Subscriber[] = [];
try {
  await createAnycastQueues(
    node,
    Array.from({ length: QUEUES }, (_, index) => queueName(index)),
  );
  if (SNAPSHOTS) mkdirSync(SNAPSHOTS, { recursive: true });
  const diagnostics: Record<string, string> = SNAPSHOTS
    ? {
        NODE_OPTIONS:
          `${process.env.NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${SNAPSHOTS}`.trim(),
      }
    : {};
  // The web process's heap limit as the caller's environment sets it (the app's start drops FLOTILLA_* it inherits).
  const heapLimit = process.env.FLOTILLA_WEB_MAX_HEAP_MB;
  const limits: Record<string, string> = heapLimit === undefined ? {} : { FLOTILLA_WEB_MAX_HEAP_MB: heapLimit };
  app = AppProcess.start({
    port: await freePort(),
    env: { DATABASE_URL: database.url, ...diagnostics, ...limits },
  });
  await app.waitUntilReady();
  const baseUrl = app.baseUrl;
  const api: ApiSession = await signInOverApi(baseUrl);
  const clusterId = await registerSingleNodeCluster(baseUrl, api, node, 'load-bench');
  await waitForQueueScraped(baseUrl, api, clusterId, queueName(QUEUES - 1));
  console.log(
    `set-up: ${String(QUEUES)} queues scraped; load for ${String(MINUTES)} min: ${String(SUBSCRIBERS)} stream subscribers, ${String(READS_PER_SECOND)} grid reads/s, ${String(WRITES_PER_SECOND)} dry-run purges/s`,
  );

  const gridUrl = (page: number, search = '') =>
    `${baseUrl}/api/v1/clusters/${clusterId}/queues?sort=-messageCount&page=${String(page)}&pageSize=50${search}`;
  const dryRunPurge = (queue: string, as: Record<string, string> = api.headers) =>
    fetch(`${baseUrl}/api/v1/clusters/${clusterId}/queues/${queue}/purge?dryRun=true`, {
      method: 'POST',
      headers: { ...as, 'Content-Type': 'application/json' },
      body: JSON.stringify({}),
    });
  // Each route alone first: what a request costs without the load.
  const alone = { grid: new RouteStats(), purge: new RouteStats() };
  for (let index = 0; index < 40; index++) {
    await alone.grid.time(() => fetch(gridUrl(1 + (index % 10)), { headers: api.headers }));
    await alone.purge.time(() => dryRunPurge(queueName(index)));
  }
  console.log(`alone, grid: ${alone.grid.summary()}`);
  console.log(`alone, purge dry run: ${alone.purge.summary()}`);

  const viewers = await signedInUsersWithRole(baseUrl, api, 'viewer', VIEWERS);
  const writers = await signedInUsersWithRole(baseUrl, api, 'operator', WRITERS);
  const streamUrl = `${baseUrl}/api/v1/stream?clusterId=${clusterId}&topics=queues,events`;
  for (const viewer of viewers)
    for (let stream = 0; stream < STREAMS_PER_VIEWER; stream++) subscribers.push(new Subscriber(streamUrl, viewer));

  const processes = appProcesses(app);
  const webHeapLimit = heapLimitOf(processes.web ?? -1);
  console.log(`web process: ${webHeapLimit}`);
  if (SNAPSHOTS) {
    while (subscribers.some((s) => !s.opened && s.dropped === undefined)) await pause(500);
    await heapSnapshot(SNAPSHOTS, processes.web ?? -1, baseUrl);
  }

  const grid = new RouteStats();
  const purge = new RouteStats();
  let tick = 0;
  const readTimer = setInterval(() => {
    tick++;
    const page = 1 + (tick % 10);
    const search = tick % 7 === 0 ? `&q=q0${String(tick % 50).padStart(2, '0')}` : '';
    void grid.time(() => fetch(gridUrl(page, search), { headers: api.headers }));
  }, 1000 / READS_PER_SECOND);
  let writes = 0;
  const writeTimer = setInterval(() => {
    const queue = queueName(writes % QUEUES);
    const writer = writers[writes++ % WRITERS];
    void purge.time(() => dryRunPurge(queue, writer));
  }, 1000 / WRITES_PER_SECOND);

  // Resident memory every 5 s (a collection's peak lasts seconds, so a sample a minute can miss it); a line a minute.
  const started = Date.now();
  const peakMb = { web: 0, worker: 0 };
  const webByMinute: number[] = [];
  // Share of one core each process used per minute: the headroom the load leaves (the web process is one thread of
  // JavaScript, so near 100 % it queues requests, and beside other work it gets less than a core).
  const cpuAtStart = { web: cpuSeconds(processes.web ?? -1), worker: cpuSeconds(processes.worker ?? -1) };
  const cpuBefore = { ...cpuAtStart };
  const webCpuByMinute: number[] = [];
  // The p95 of each minute's answers: a warming-up first minute and a steady state are told apart.
  const answeredBefore = { grid: 0, purge: 0 };
  const sampleMemory = () => {
    peakMb.web = Math.max(peakMb.web, residentMb(processes.web ?? -1));
    peakMb.worker = Math.max(peakMb.worker, residentMb(processes.worker ?? -1));
  };
  const memoryTimer = setInterval(sampleMemory, 5_000);
  for (let minute = 1; minute <= MINUTES; minute++) {
    await pause(started + minute * 60_000 - Date.now());
    sampleMemory();
    webByMinute.push(residentMb(processes.web ?? -1));
    const cpuNow = { web: cpuSeconds(processes.web ?? -1), worker: cpuSeconds(processes.worker ?? -1) };
    // CPU-seconds in a 60-second minute, as % of one core.
    const webCpu = ((cpuNow.web - cpuBefore.web) / 60) * 100;
    const workerCpu = ((cpuNow.worker - cpuBefore.worker) / 60) * 100;
    Object.assign(cpuBefore, cpuNow);
    webCpuByMinute.push(webCpu);
    const minuteP95 = `p95 grid ${grid.p95Since(answeredBefore.grid).toFixed(0)} ms, dry run ${purge.p95Since(answeredBefore.purge).toFixed(0)} ms`;
    Object.assign(answeredBefore, { grid: grid.times.length, purge: purge.times.length });
    console.log(
      `minute ${String(minute)}: web ${residentMb(processes.web ?? -1).toFixed(0)} MB ${webCpu.toFixed(0)} % of a core, worker ${residentMb(processes.worker ?? -1).toFixed(0)} MB ${workerCpu.toFixed(0)} %, load ${loadavg()[0]?.toFixed(1) ?? '?'}; grid ${String(grid.times.length)} answered, purge dry runs ${String(purge.times.length)} (this minute's ${minuteP95}), subscribers open ${String(subscribers.filter((s) => s.opened && !s.dropped).length)}`,
    );
  }
  clearInterval(memoryTimer);
  clearInterval(readTimer);
  clearInterval(writeTimer);
  while (grid.inFlight + purge.inFlight > 0) await pause(100);
  if (SNAPSHOTS) await heapSnapshot(SNAPSHOTS, processes.web ?? -1, baseUrl);

  const dropped = subscribers.filter((s) => s.dropped !== undefined);
  const neverOpened = subscribers.filter((s) => !s.opened);
  const messages = subscribers.reduce((total, s) => total + s.messages, 0);
  console.log(`GET  /clusters/{id}/queues (grid): ${grid.summary()}`);
  console.log(`POST /clusters/{id}/queues/{q}/purge?dryRun=true: ${purge.summary()}`);
  console.log(
    `stream: ${String(SUBSCRIBERS)} subscribers, ${String(neverOpened.length)} never opened, ${String(dropped.length)} dropped${dropped[0]?.dropped ? ` (first: ${dropped[0].dropped})` : ''}, ${String(messages)} messages received in all`,
  );
  // What the app logged as errors meanwhile (the first few, with their request ids), to find a 500's cause.
  const logged = app.logLines().filter((line) => line.level === 'error' || line.level === 'fatal');
  console.log(`app error lines: ${String(logged.length)}`);
  for (const line of logged.slice(0, 5)) console.log(`  ${JSON.stringify(line).slice(0, 600)}`);
  const errors = grid.errors + purge.errors + dropped.length + neverOpened.length;
  console.log(`errors in all: ${String(errors)} (target 0) — ${errors === 0 ? 'holds' : 'MISSES'}`);
  const load = `Flotilla as npm start runs it under ${String(MINUTES)} min of load (${String(SUBSCRIBERS)} stream subscribers, ${String(READS_PER_SECOND)} queue-grid reads/s, ${String(WRITES_PER_SECOND)} dry-run purges/s, ${String(QUEUES)} queues, open-loop)`;
  reportFigure({
    id: 'load.errors',
    figure: `${load}: errors in all (4xx/5xx or failed requests, streams dropped or never opened)`,
    target: '0',
    seen: `${String(errors)} (grid ${String(grid.errors)}, purge ${String(purge.errors)}, streams dropped ${String(dropped.length)}, never opened ${String(neverOpened.length)}); ${String(grid.shed + purge.shed)} shed`,
    holds: errors === 0,
  });
  reportFigure({
    id: 'load.grid-p95',
    figure: `${load}: GET /clusters/{id}/queues (the grid)`,
    target: '—',
    seen: grid.latencies(),
  });
  reportFigure({
    id: 'load.purge-dry-run-p95',
    figure: `${load}: POST /clusters/{id}/queues/{q}/purge?dryRun=true`,
    target: '—',
    seen: purge.latencies(),
  });
  reportFigure({
    id: 'load.rss',
    figure: `${load}: resident memory of the web and worker processes, the most seen (every 5 s), and the web's at each minute`,
    target: '—',
    seen: `web ${peakMb.web.toFixed(0)} MB (${webHeapLimit}; minutes ${webByMinute.map((mb) => mb.toFixed(0)).join(', ')}), worker ${peakMb.worker.toFixed(0)} MB`,
  });
  const loadSeconds = MINUTES * 60;
  reportFigure({
    id: 'load.cpu',
    figure: `${load}: CPU used by the web and worker processes, in % of one core over the load (the web's at each minute)`,
    target: '—',
    seen: `web ${(((cpuBefore.web - cpuAtStart.web) / loadSeconds) * 100).toFixed(0)} % (minutes ${webCpuByMinute.map((share) => share.toFixed(0)).join(', ')}), worker ${(((cpuBefore.worker - cpuAtStart.worker) / loadSeconds) * 100).toFixed(0)} %`,
  });
} finally {
  for (const subscriber of subscribers) subscriber.close();
  await app?.destroy();
  await broker.stop();
  await database.drop();
}
