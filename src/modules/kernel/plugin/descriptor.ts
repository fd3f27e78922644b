// The module contract. Every module — kernel, platform, feature — declares itself once with `defineModule`.
// A descriptor is data plus lazily imported handlers, so importing one is cheap in either process.
// Routers are the exception: they are composed statically in src/server/trpc/app-router.ts so the
// `AppRouter` type survives; a disabled module's procedures are refused by the feature gate.
import type { Pool } from 'pg';
import type { DatabaseBus } from '@/server/db/bus.ts';
import type { PrismaClient } from '@/server/db/database.ts';
import type { InternalNotifications } from '../core/internal-notifications.ts';
import type { ModuleRegistry } from './registry.ts';
import type { SettingDeclaration } from './setting-types.ts';

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

export interface McpEntryDeclaration {
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

export interface SettingsReader {
  duration(key: string): number;
  integer(key: string): number;
  boolean(key: string): boolean;
  string(key: string): string;
}

/** The one database handle jobs get: set-based SQL with parameters. */
export interface JobDatabase {
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

export interface HealthIndicatorDeclaration {
  readonly id: string;
  readonly load: () => Promise<{ check: (context: HealthContext) => Promise<HealthComponent> }>;
}

export interface HealthContext {
  readonly instanceId: string;
  readonly prisma: PrismaClient;
  readonly registry: ModuleRegistry;
}

/** What the security kernel asks a sign-in provider; providers answer nothing for what is not theirs. */
export interface SignInProviderContext {
  readonly prisma: PrismaClient;
}

export interface CredentialProvider {
  /** Takes the same time whether or not the user exists (verify against a decoy hash when it does not). */
  authenticate(
    context: SignInProviderContext,
    credentials: { username: string; password: string },
  ): Promise<{ userId: string } | undefined>;
}

export interface CredentialProviderDeclaration {
  readonly id: string;
  readonly kind: 'credential';
  readonly label: string;
  readonly load: () => Promise<CredentialProvider>;
}

/** A browser sign-in at an external provider (OIDC): the sign-in page sends the browser to `startPath`. */
export interface RedirectProviderDeclaration {
  readonly id: string;
  readonly kind: 'redirect';
  readonly label: string;
  readonly startPath: string;
}

export type SignInProviderDeclaration = CredentialProviderDeclaration | RedirectProviderDeclaration;

/** A bearer provider answers for its own tokens only (e.g. `as_` API tokens) and nothing otherwise. */
export interface BearerProvider {
  resolve(context: SignInProviderContext, token: string): Promise<{ userId: string; label: string } | undefined>;
}

export interface BearerProviderDeclaration {
  readonly id: string;
  readonly load: () => Promise<BearerProvider>;
}

/** Where a cluster sits in the scope hierarchy (its environment), for the cluster access guard. */
export interface LocatedCluster {
  readonly clusterId: string;
  readonly environmentId: string | null;
}

/** Answered by the module that owns clusters; undefined for an id that names no cluster. */
export interface ClusterLocator {
  locate(prisma: PrismaClient, clusterId: string): Promise<LocatedCluster | undefined>;
  environmentExists(prisma: PrismaClient, environmentId: string): Promise<boolean>;
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

/** What a worker service gets: the worker's runtime, typed structurally so modules import no process code. */
export interface WorkerServiceContext {
  readonly instanceId: string;
  readonly prisma: PrismaClient;
  /** The shared pg pool, for set-based SQL on hot paths and advisory locks. */
  readonly pool: Pool;
  readonly bus: DatabaseBus;
  readonly settings: SettingsReader & { onChange(key: string, listener: () => void): () => void };
  readonly notifications: InternalNotifications;
  readonly registry: ModuleRegistry;
  readonly publishSignal: (topic: string, clusterId: string) => Promise<void>;
}

/** One registration check's answer, shown to whoever registers a cluster before anything is saved. */
export interface RegistrationCheckOutcome {
  readonly status: 'ok' | 'warn' | 'fail';
  readonly detail: string;
  /** What to do about a warn or fail, in words. */
  readonly advice?: string;
  /** Broker configuration that would change the answer, with the file it belongs in. */
  readonly snippet?: string;
}

/** What the clusters module found about one node of the cluster being registered (plain data, no clients). */
export interface RegistrationProbeNode {
  readonly managementUrl: string;
  readonly amqpUrl: string | null;
  /** Found through the seed's topology rather than given. */
  readonly discovered: boolean;
  readonly role: 'PRIMARY' | 'BACKUP' | 'UNKNOWN';
  /** Set when the node answered its state read. */
  readonly state?: {
    readonly name: string;
    readonly version: string;
    readonly nodeId: string;
    readonly active: boolean;
    readonly backup: boolean;
    readonly haPolicy: string;
  };
  /** Set when it did not: a classified management error. */
  readonly error?: {
    readonly kind: string;
    readonly message: string;
    readonly advice: string;
    readonly snippet?: string;
  };
}

export interface RegistrationProbe {
  readonly clusterName: string;
  readonly username: string;
  /** The seed first, then every other given or discovered node. */
  readonly nodes: readonly RegistrationProbeNode[];
  /** Capability verdicts read on the seed: MANAGEMENT_READ, MANAGEMENT_WRITE, NOTIFICATIONS, MESSAGE_IO. */
  readonly capabilities: Readonly<
    Record<
      string,
      { readonly value: 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN'; readonly detail: string; readonly snippet?: string }
    >
  >;
  /** One Jolokia bulk call to a node of the cluster (with the registration's credentials), for checks needing more. */
  readonly call: (managementUrl: string, requests: readonly object[]) => Promise<unknown[]>;
}

/**
 * A check run while a cluster is registered (and on every dry-run probe). A failing blocking check refuses the
 * registration; every result is shown either way.
 */
export interface RegistrationCheckDeclaration {
  readonly id: string;
  readonly title: string;
  readonly blocking: boolean;
  readonly load: () => Promise<{ run: (probe: RegistrationProbe) => Promise<RegistrationCheckOutcome> }>;
}

export interface ModuleDescriptor {
  readonly id: string;
  readonly title: string;
  readonly layer: ModuleLayer;
  readonly description: string;
  readonly requires: readonly string[];
  readonly permissions: readonly PermissionDeclaration[];
  readonly settings: readonly SettingDeclaration[];
  readonly topics: readonly string[];
  readonly mcp: readonly McpEntryDeclaration[];
  /** Absolute REST path prefixes, e.g. `/api/v1/settings`. Disabled module: every path below answers 404. */
  readonly apiPrefixes: readonly string[];
  readonly jobs: readonly JobDeclaration[];
  readonly healthIndicators: readonly HealthIndicatorDeclaration[];
  readonly signInProviders: readonly SignInProviderDeclaration[];
  readonly bearerProviders: readonly BearerProviderDeclaration[];
  /** Checks run during cluster registration, every enabled module's, in module order. */
  readonly registrationChecks: readonly RegistrationCheckDeclaration[];
  /** The one module that owns clusters answers where a cluster sits; the security kernel's guard asks it. */
  readonly clusterLocator?: () => Promise<ClusterLocator>;
  readonly workerServices: readonly WorkerServiceDeclaration[];
}

type Optional =
  | 'requires'
  | 'permissions'
  | 'settings'
  | 'topics'
  | 'mcp'
  | 'apiPrefixes'
  | 'jobs'
  | 'healthIndicators'
  | 'signInProviders'
  | 'bearerProviders'
  | 'workerServices'
  | 'registrationChecks';

export type ModuleDefinition = Omit<ModuleDescriptor, Optional> & Partial<Pick<ModuleDescriptor, Optional>>;

export function defineModule(definition: ModuleDefinition): ModuleDescriptor {
  return {
    requires: [],
    permissions: [],
    settings: [],
    topics: [],
    mcp: [],
    apiPrefixes: [],
    jobs: [],
    healthIndicators: [],
    signInProviders: [],
    bearerProviders: [],
    workerServices: [],
    registrationChecks: [],
    ...definition,
  };
}

/** The startup property that turns a module on or off, e.g. `flotilla.features.queues.enabled`. */
export function enablingProperty(moduleId: string): string {
  return `flotilla.features.${moduleId}.enabled`;
}

/** The environment form of a property: dots and hyphens become underscores, letters upper case. */
export function environmentVariableFor(property: string): string {
  return property.replace(/[.-]/g, '_').toUpperCase();
}

/** Kernel and platform modules are required; `mcp` is the one platform module that may be turned off. */
export function canBeDisabled(module: Pick<ModuleDescriptor, 'id' | 'layer'>): boolean {
  return module.layer === 'feature' || module.id === 'mcp';
}
