// GET /metrics's body. The fleet part is computed from the stored state (what the worker last wrote) and kept for
// telemetry.cache, one computation at a time per process however many scrapes arrive; the process part (prom-client's
// default metrics, this process's stream subscribers) is read live. Why on the web process, from the database:
// docs/adr/0031-prometheus-metrics.md.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { ModuleRegistry, SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { readAllJobStatuses } from '@/modules/kernel/jobs/index.ts';
import { webStreamOf } from '@/modules/kernel/stream/index.ts';
import { listClusterLocations, listPolledNodes } from '@/modules/platform/clusters/index.ts';
import { type ExposedQueueTotals, readExposedQueues, readSweeps } from '@/modules/platform/scrape/read/index.ts';
import { gauge } from './families.ts';
import { nodeFamilies, nodeLabelOf, type PolledNode, queueFamilies } from './fleet-collector.ts';
import {
  type MetricFamily,
  type MetricSample,
  type TelemetrySourceDeclaration,
  telemetrySources,
} from './metric-source.ts';
import { parseQueueGlobs } from './queue-globs.ts';
import { type JobRow, jobFamilies, sweepFamilies } from './self-collector.ts';
import { TELEMETRY_SETTINGS } from './telemetry.settings.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('telemetry');

export interface TelemetryRuntime {
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly bus: DatabaseBus;
  readonly registry: ModuleRegistry;
  readonly settings: SettingsReader;
}

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

interface Cached {
  /** The settings the body was computed under: a change of them is served at once, not after the cache. */
  readonly key: string;
  readonly expiresAt: number;
  readonly body: Promise<string>;
}
const cache = new WeakMap<Database, Cached>();
let processRegistry: Registry | undefined;

/** The whole exposition: the fleet part (cached) after this process's own metrics. */
export async function renderMetrics(runtime: TelemetryRuntime, now: Date = new Date()): Promise<string> {
  const [fleet, own] = await Promise.all([cachedFleetPart(runtime, now), processPart(runtime)]);
  return `${fleet}${own}`;
}

function cachedFleetPart(runtime: TelemetryRuntime, now: Date): Promise<string> {
  const { settings } = runtime;
  const key = `${settings.string(TELEMETRY_SETTINGS.queuePatterns)}\n${settings.integer(TELEMETRY_SETTINGS.queueCap)}`;
  const held = cache.get(runtime.db);
  if (held && held.key === key && held.expiresAt > now.getTime()) return held.body;
  const body = fleetPart(runtime, now);
  const entry = { key, expiresAt: now.getTime() + settings.duration(TELEMETRY_SETTINGS.cache), body };
  cache.set(runtime.db, entry);
  // A failed computation is not served again.
  body.catch(() => {
    if (cache.get(runtime.db) === entry) cache.delete(runtime.db);
  });
  return body;
}

function processPart(runtime: TelemetryRuntime): Promise<string> {
  let subscribers: number | undefined;
  try {
    subscribers = webStreamOf(runtime.bus).hub.size;
  } catch {
    subscribers = undefined; // not a web process: no streams here
  }
  return processMetrics(subscribers);
}

/** This process's own metrics: prom-client's default ones, and its stream subscribers when it serves streams. */
export async function processMetrics(streamSubscribers: number | undefined): Promise<string> {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'flotilla_' });
  }
  const own = new Registry();
  if (streamSubscribers !== undefined) {
    new Gauge({
      name: 'flotilla_stream_subscribers',
      help: 'Open event streams (GET /api/v1/stream) held by the web process answering this scrape.',
      registers: [own],
    }).set(streamSubscribers);
  }
  return `${await processRegistry.metrics()}${await own.metrics()}`;
}

async function fleetPart(runtime: TelemetryRuntime, now: Date): Promise<string> {
  const { db, prisma, settings } = runtime;
  const cap = settings.integer(TELEMETRY_SETTINGS.queueCap);
  const [clusters, nodes, sweeps, jobs, exposed] = await Promise.all([
    listClusterLocations(prisma),
    listPolledNodes(prisma),
    readSweeps(prisma, undefined, now),
    readAllJobStatuses(prisma, now),
    readExposedQueues(db, { globs: parseQueueGlobs(settings.string(TELEMETRY_SETTINGS.queuePatterns)), cap }),
  ]);
  const sources = runtime.registry.contributionsTo(telemetrySources).map((contributed) => contributed.value);
  const families = await fleetFamilies({ clusters, nodes, sweeps, jobs, exposed }, sources, db, now);
  const comment =
    exposed.matched > exposed.queues.length
      ? `# flotilla: per-queue series cut at ${exposed.queues.length} of ${exposed.matched} matching queues (telemetry.queue-cap); the deepest are kept\n`
      : '';
  return `${comment}${await registryOf(families).metrics()}`;
}

/** What the stored state reads gave, as fleetFamilies takes it. */
export interface StoredState {
  readonly clusters: readonly { id: string; name: string }[];
  readonly nodes: readonly PolledNode[];
  readonly sweeps: Parameters<typeof sweepFamilies>[0];
  readonly jobs: readonly JobRow[];
  readonly exposed: { readonly queues: readonly ExposedQueueTotals[]; readonly matched: number };
}

/** Every family of the fleet part: telemetry's own from the stored state, then each contributed source's. */
export async function fleetFamilies(
  state: StoredState,
  sources: readonly TelemetrySourceDeclaration[],
  db: Database,
  now: Date,
): Promise<MetricFamily[]> {
  const { exposed } = state;
  const clusterNames = new Map(state.clusters.map((cluster) => [cluster.id, cluster.name]));
  const nodeLabels = new Map(state.nodes.map((node) => [node.id, nodeLabelOf(node)]));
  const single = (name: string, help: string, value: number) => gauge(name, help, [], [{ labels: {}, value }]);
  const families: MetricFamily[] = [
    single(
      'flotilla_metrics_truncated',
      '1 when per-queue series were cut at telemetry.queue-cap.',
      exposed.matched > exposed.queues.length ? 1 : 0,
    ),
    single(
      'flotilla_metrics_queues_matched',
      'Queues telemetry.queue-patterns selects (internal ones left out).',
      exposed.matched,
    ),
    single(
      'flotilla_metrics_queues_exposed',
      'Queues with per-queue series in this exposition.',
      exposed.queues.length,
    ),
    ...nodeFamilies(state.nodes, clusterNames),
    ...queueFamilies(exposed.queues, clusterNames),
    ...sweepFamilies(state.sweeps, clusterNames, (nodeId) => nodeLabels.get(nodeId) ?? nodeId, now),
    ...jobFamilies(state.jobs),
  ];
  const context = { db, now, clusterNames, queues: exposed.queues };
  const sourceUp: MetricSample[] = [];
  for (const source of sources) {
    try {
      families.push(...(await (await source.load()).collect(context)));
      sourceUp.push({ labels: { source: source.id }, value: 1 });
    } catch (error) {
      log.error({ err: error, source: source.id }, 'a metric source failed');
      sourceUp.push({ labels: { source: source.id }, value: 0 });
    }
  }
  families.push(
    gauge(
      'flotilla_metrics_source_up',
      '1 when the contributed source answered this collection.',
      ['source'],
      sourceUp,
    ),
  );
  return families;
}

/** A fresh registry holding the families, each once (a name met twice keeps its first family). */
export function registryOf(families: readonly MetricFamily[]): Registry {
  const registry = new Registry();
  const seen = new Set<string>();
  for (const family of families) {
    if (seen.has(family.name)) {
      log.error({ family: family.name }, 'a metric family is exposed twice; the second is left out');
      continue;
    }
    seen.add(family.name);
    const options = { name: family.name, help: family.help, labelNames: [...family.labelNames], registers: [registry] };
    if (family.type === 'counter') {
      const counter = new Counter(options);
      for (const sample of family.samples) counter.inc(sample.labels, Math.max(0, sample.value));
      if (family.samples.length === 0 && family.labelNames.length === 0) counter.inc(0);
    } else {
      const metric = new Gauge(options);
      for (const sample of family.samples) metric.set(sample.labels, sample.value);
    }
  }
  return registry;
}
