// The module contract. Every module — kernel, platform, feature — declares itself once with `defineModule`.
// A descriptor is data plus lazily imported handlers, so importing one is cheap in either process. It carries
// what every module may have (permissions, settings, topics, jobs, health, worker services); what belongs to one
// domain (sign-in providers, registration checks, …) is an extension point declared by the module that owns it.
// Routers are composed statically in src/installation/app-router.ts so the `AppRouter` type survives; a disabled
// module's procedures are refused by the feature gate.
import type { Pool } from 'pg';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import type { Environment } from '@/base/env.ts';
import type { Contribution, ExtensionPoint } from './extension-point.ts';
import type { SettingDeclaration, SettingsReader } from './setting-types.ts';

export type ModuleLayer = 'kernel' | 'platform' | 'feature';

/** The built-in roles, each including every permission of the ones before it. */
export const BUILT_IN_ROLES = ['viewer', 'operator', 'admin', 'installer'] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

export interface PermissionDeclaration {
  /** `resource:action`, like the spec's `message:clear`. */
  readonly id: string;
  readonly description: string;
  /** The lowest built-in role that holds this permission. */
  readonly includedIn: BuiltInRole;
}

interface McpEntryDeclaration {
  readonly name: string;
  readonly kind: 'tool' | 'resource' | 'prompt';
}

/** What a job handler receives from the scheduler. Kept structural so modules need no scheduler import. */
export interface JobContext {
  readonly jobId: string;
  readonly instanceId: string;
  readonly signal: AbortSignal;
  readonly settings: SettingsReader;
  readonly db: JobDatabase;
  readonly publishSignal: (topic: string, clusterId: string) => Promise<void>;
  readonly log: (message: string) => void;
}

/** The one database handle jobs get: set-based SQL with parameters. */
interface JobDatabase {
  execute(sql: string, params?: readonly unknown[]): Promise<{ rowCount: number }>;
}

export interface JobResult {
  /** Shown in the job list next to the last run, e.g. "deleted 12 rows". */
  readonly summary?: string;
}

export interface JobDeclaration {
  /** `<module>.<name>`, unique in the installation. */
  readonly id: string;
  readonly description: string;
  /** Interval taken from a duration setting (re-applied when it changes), or a cron expression. */
  readonly schedule: { readonly everySetting: string } | { readonly cron: string };
  /** When true, one instance at a time runs it (database advisory lock); the others record SKIPPED. */
  readonly exclusive: boolean;
  readonly load: () => Promise<{ run: (context: JobContext) => Promise<JobResult> }>;
}

export type HealthStatus = 'UP' | 'DEGRADED' | 'DOWN' | 'UNKNOWN';

export interface HealthComponent {
  readonly status: HealthStatus;
  readonly details: Record<string, unknown>;
}

interface HealthIndicatorDeclaration {
  readonly id: string;
  readonly load: () => Promise<{ check: (context: HealthContext) => Promise<HealthComponent> }>;
}

export interface HealthContext {
  readonly instanceId: string;
  readonly prisma: PrismaClient;
  readonly registry: ModuleRegistry;
}

/**
 * A long-running part of the worker (scrape tiers, notification subscriptions, native pools). The worker starts
 * every enabled module's services after the scheduler and stops them in the spec's shutdown order by `stage`.
 */
export interface WorkerServiceDeclaration {
  readonly id: string;
  /** Stopped in this order: scrape (broker calls), then subscriptions (and capture), then pools. */
  readonly stage: 'scrape' | 'subscriptions' | 'pools';
  readonly load: () => Promise<{ start: (context: WorkerServiceContext) => Promise<RunningWorkerService> }>;
}

export interface RunningWorkerService {
  stop(): Promise<void>;
}

/**
 * What a worker service gets: the worker's runtime, typed structurally so modules import no process code. Core adds
 * its internal notifications (`notifications`, by declaration merging in kernel/core/internal-notifications.ts), so
 * the module contract imports no module.
 */
export interface WorkerServiceContext {
  readonly instanceId: string;
  readonly prisma: PrismaClient;
  /** The shared pg pool, for set-based SQL on hot paths and advisory locks. */
  readonly pool: Pool;
  readonly bus: DatabaseBus;
  readonly settings: SettingsReader & { onChange(key: string, listener: () => void): () => void };
  readonly registry: ModuleRegistry;
  readonly publishSignal: (topic: string, clusterId: string) => Promise<void>;
}

/** What a module's process-start hook gets: the process's runtime, typed structurally so modules import no process code. */
export interface ProcessStartContext {
  readonly kind: 'web' | 'worker';
  readonly db: Database;
  readonly bus: DatabaseBus;
  readonly registry: ModuleRegistry;
  /** The process's environment as the runtime read it (database URL, instance id, data directory). */
  readonly environment: Environment;
  /** Runs `hook` when the process's runtime closes, before its database does (newest first). */
  readonly onClose: (hook: () => Promise<void>) => void;
}

/**
 * Run once in every process (web and worker) of an enabled module, in module order, when the runtime is open and before
 * the process serves or starts services: where a module wires its own extension points for the process's lifetime.
 */
interface ProcessStartDeclaration {
  readonly load: () => Promise<{ start: (context: ProcessStartContext) => Promise<void> }>;
}

export type ToggleSource = 'default' | 'environment' | 'database';

export interface InstalledModule {
  readonly descriptor: ModuleDescriptor;
  readonly enabled: boolean;
  readonly enablingProperty: string;
  readonly toggleSource: ToggleSource;
}

export interface PermissionEntry extends PermissionDeclaration {
  readonly module: string;
  readonly enabled: boolean;
}

/**
 * The installation as the registry resolved it (registry.ts builds it): declared here, beside the descriptor,
 * because handlers' contexts carry it and the descriptor must not import the registry that reads it.
 */
export interface ModuleRegistry {
  readonly modules: readonly InstalledModule[];
  readonly warnings: readonly string[];
  readonly enabledDescriptors: readonly ModuleDescriptor[];
  get(id: string): InstalledModule | undefined;
  isEnabled(id: string): boolean;
  /** The module whose API prefix matches the path most specifically, enabled or not. */
  ownerOfPath(pathname: string): InstalledModule | undefined;
  /** Topics of enabled modules; a subscriber's other topics are dropped. */
  enabledTopics(): ReadonlySet<string>;
  /** An enabled module's own body limit for exactly this method and path (`largeBodies`), if it declares one. */
  largeBodyLimit(method: string, pathname: string): number | undefined;
  /** Every permission of the installation; disabled modules' permissions are listed and marked. */
  permissionCatalogue(): PermissionEntry[];
  /** Settings of enabled modules plus the enabling property of every module that can be turned off. */
  settingDeclarations(): SettingDeclaration[];
  enabledJobs(): (JobDeclaration & { moduleId: string })[];
  enabledWorkerServices(): (WorkerServiceDeclaration & { moduleId: string })[];
  /** What enabled modules contribute to a point, in module order. */
  contributionsTo<T>(point: ExtensionPoint<T>): { readonly moduleId: string; readonly value: T }[];
}

export interface ModuleDescriptor {
  readonly id: string;
  readonly title: string;
  readonly layer: ModuleLayer;
  readonly description: string;
  readonly requires: readonly string[];
  /**
   * Modules whose public entry this one calls only while they are enabled (it asks `registry.isEnabled` first and
   * imports the entry lazily): unlike `requires`, they may be off or not installed, and this module still runs.
   */
  readonly uses: readonly string[];
  readonly permissions: readonly PermissionDeclaration[];
  readonly settings: readonly SettingDeclaration[];
  readonly topics: readonly string[];
  readonly mcp: readonly McpEntryDeclaration[];
  /** Absolute REST path prefixes, e.g. `/api/v1/settings`. Disabled module: every path below answers 404. */
  readonly apiPrefixes: readonly string[];
  readonly jobs: readonly JobDeclaration[];
  readonly healthIndicators: readonly HealthIndicatorDeclaration[];
  readonly workerServices: readonly WorkerServiceDeclaration[];
  /** The extension points this module owns (and consumes); see extension-point.ts. */
  readonly extensionPoints: readonly ExtensionPoint<unknown>[];
  /** What this module contributes to other modules' (or its own) extension points. */
  readonly contributions: readonly Contribution[];
  /** The module's per-process start hook, if it has one. */
  readonly processStart?: ProcessStartDeclaration;
  /**
   * Endpoints that take more than `http.max-body-bytes` from a signed-in caller (a plugin archive), each with its own
   * limit; everything else keeps the setting's.
   */
  readonly largeBodies?: readonly { readonly method: string; readonly path: string; readonly maxBytes: number }[];
}

type Optional =
  | 'requires'
  | 'uses'
  | 'permissions'
  | 'settings'
  | 'topics'
  | 'mcp'
  | 'apiPrefixes'
  | 'jobs'
  | 'healthIndicators'
  | 'workerServices'
  | 'extensionPoints'
  | 'contributions';

export type ModuleDefinition = Omit<ModuleDescriptor, Optional> & Partial<Pick<ModuleDescriptor, Optional>>;

export function defineModule(definition: ModuleDefinition): ModuleDescriptor {
  return {
    requires: [],
    uses: [],
    permissions: [],
    settings: [],
    topics: [],
    mcp: [],
    apiPrefixes: [],
    jobs: [],
    healthIndicators: [],
    workerServices: [],
    extensionPoints: [],
    contributions: [],
    ...definition,
  };
}
