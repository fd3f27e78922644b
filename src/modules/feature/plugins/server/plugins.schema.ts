// The plugins API's shapes: what Admin → Plugins and its REST callers send and get back.
import { z } from 'zod';
import { PLUGIN_OPERATIONS, PLUGIN_STATES } from './lifecycle/states.ts';

const pluginId = z.string().regex(/^[a-z][a-z0-9-]{2,31}$/, 'must be a plugin id such as naming-policy');
const version = z.string().min(1).max(100);
/** Step-up: the signed-in person's password typed again (local accounts; an OIDC account signs in again instead). */
const password = z.string().min(1).max(1_000).optional();
const dryRun = z.boolean().default(false);

const finding = z.object({
  code: z.string(),
  entry: z.string().optional(),
  message: z.string(),
});

const archiveView = z.object({
  version: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  uploadedBy: z.string(),
  uploadedAt: z.string(),
});

const pluginView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  state: z.enum(PLUGIN_STATES),
  version: z.string(),
  previousVersion: z.string().nullable(),
  activation: z.string(),
  lastError: z.string().nullable(),
  updatedBy: z.string(),
  updatedAt: z.string(),
  /** Running in the web process that answered, with its pid and how its network is cut off. */
  runningHere: z
    .object({ version: z.string(), pid: z.number().int(), startedAt: z.string(), network: z.string() })
    .nullable(),
  archives: z.array(archiveView),
  manifest: z.record(z.string(), z.unknown()),
  settings: z.array(
    z.object({ key: z.string(), description: z.string(), type: z.string(), value: z.unknown(), default: z.unknown() }),
  ),
});

const safeModeView = z.object({
  instanceId: z.string(),
  safeMode: z.boolean(),
  since: z.string().nullable(),
  reason: z.string().nullable(),
  uncleanBoots: z.number().int(),
});

export const listOutput = z.object({ items: z.array(pluginView), safeMode: safeModeView });
export const idInput = z.object({ id: pluginId });
export const getOutput = pluginView;

export const uploadInput = z.object({
  /** The archive, base64-encoded. */
  archive: z.string().min(1).max(8_000_000),
  password,
  dryRun,
});
export const uploadOutput = z.object({
  id: z.string(),
  version: z.string(),
  sha256: z.string(),
  dryRun: z.boolean(),
  manifest: z.record(z.string(), z.unknown()),
});

export const planInput = z.object({ id: pluginId, operation: z.enum(PLUGIN_OPERATIONS), version: version.optional() });
export const planOutput = z.object({
  id: z.string(),
  operation: z.enum(PLUGIN_OPERATIONS),
  allowed: z.boolean(),
  refusal: z.string().nullable(),
  fromVersion: z.string(),
  toVersion: z.string().nullable(),
  activation: z.string().nullable(),
  findings: z.array(finding),
  /** What the plugin would add (or take away): its permissions, settings, topics, jobs, tools, routes, contributions. */
  adds: z.record(z.string(), z.array(z.string())),
  migrations: z.array(z.string()),
  steps: z.array(z.string()),
});

export const operationInput = z.object({
  id: pluginId,
  version: version.optional(),
  password,
  dryRun,
});
export const operationOutput = z.object({
  id: z.string(),
  operation: z.enum(PLUGIN_OPERATIONS),
  dryRun: z.boolean(),
  state: z.enum(PLUGIN_STATES).nullable(),
  version: z.string().nullable(),
  steps: z.array(z.string()),
  /** A Restart activation: the service restarts itself to take it up (or must be restarted, without a supervisor). */
  restart: z.enum(['none', 'restarting', 'required']),
});

export const leaveSafeModeInput = z.object({ password, dryRun });
export const leaveSafeModeOutput = z.object({ instances: z.number().int(), dryRun: z.boolean() });

export const uiBundlesOutput = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      version: z.string(),
      url: z.string(),
      contributions: z.array(z.object({ kind: z.string(), slot: z.string(), id: z.string() })),
      settings: z.array(z.string()),
    }),
  ),
});

export const runJobInput = z.object({ id: pluginId, jobId: z.string().min(1).max(200), dryRun });
export const runJobOutput = z.object({
  id: z.string(),
  jobId: z.string(),
  dryRun: z.boolean(),
  /** What the job answered (JSON), or null on a dry run. */
  result: z.unknown(),
});
