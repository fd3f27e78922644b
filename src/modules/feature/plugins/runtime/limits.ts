// The limits a plugin process runs under, and their defaults in one place: the lifecycle passes the manifest's or the
// operator's values, and anything left out falls back to these.

export interface PluginLimits {
  /** V8 heap cap (--max-old-space-size); running out of it ends the process with reason 'memory'. */
  memoryMb: number;
  /** Resident set cap the host watches, for what lives outside the heap (Buffers, ArrayBuffers). */
  rssMb: number;
  /** CPU time (user + system) the process may use in any sliding minute. */
  cpuMsPerMinute: number;
  /** How long the host waits for one route, job or tool call (and the plugin for one host call). */
  callTimeoutMs: number;
  /** Host calls (and settings reads) the host works on at once for this plugin; more are refused at once. */
  hostCallsInFlight: number;
  /** How long startup (node, the bundle's import and activate()) may take. */
  activateTimeoutMs: number;
  /** How long stop() waits for deactivate() and a clean exit before SIGKILL. */
  stopGraceMs: number;
  /** Ping interval and the silence after which the event loop counts as stuck (reason 'unresponsive'). */
  pingIntervalMs: number;
  unresponsiveMs: number;
  /** How often /proc is read for RSS and CPU time. */
  sampleIntervalMs: number;
}

export const DEFAULT_PLUGIN_LIMITS: Readonly<PluginLimits> = Object.freeze({
  memoryMb: 128,
  // Node's own footprint (about 50 MB) plus the heap cap plus room for Buffers.
  rssMb: 256,
  cpuMsPerMinute: 30_000,
  callTimeoutMs: 10_000,
  activateTimeoutMs: 10_000,
  hostCallsInFlight: 32,
  stopGraceMs: 2_000,
  pingIntervalMs: 500,
  // Generous against a loaded two-core machine: a healthy child answers a ping within milliseconds.
  unresponsiveMs: 3_000,
  sampleIntervalMs: 250,
});

/**
 * The defaults, overridden by every limit given as a positive number: an undefined one keeps its default, and keys
 * that are no limit (a manifest's other fields) are ignored. No upper bound here: capping what a manifest may ask
 * for is the caller's policy.
 */
export function effectiveLimits(given: Partial<PluginLimits> = {}): PluginLimits {
  const limits: PluginLimits = { ...DEFAULT_PLUGIN_LIMITS };
  for (const key of Object.keys(DEFAULT_PLUGIN_LIMITS) as (keyof PluginLimits)[]) {
    const value: unknown = given[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new Error(`plugin limit ${key} must be a positive number, not ${JSON.stringify(value)}`);
    limits[key] = value;
  }
  return limits;
}
