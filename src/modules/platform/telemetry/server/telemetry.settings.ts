// Runtime settings of GET /metrics: who may scrape it (a token's hash, an address allowlist), which queues it
// labels (patterns and a hard cap, so a fleet of 100,000 queues cannot flood a Prometheus), and how long one
// answer is reused.
import {
  durationSetting,
  integerSetting,
  stringSetting,
  type SettingDeclaration,
} from '@/modules/kernel/plugin/index.ts';

/** Above this no setting can raise the number of queues labelled in one exposition. */
const QUEUE_HARD_CAP = 20_000;

export const TELEMETRY_SETTINGS = {
  tokenSha256: stringSetting({
    key: 'telemetry.scrape-token-sha256',
    description:
      'The SHA-256 (64 hex digits) of the bearer token a Prometheus sends to GET /metrics; empty: no token is accepted. Make one with `openssl rand -hex 32 > token` and `sha256sum token`.',
    defaultValue: '',
    pattern: /^(|[0-9a-f]{64})$/,
    patternInWords: 'empty, or 64 lower-case hex digits (a SHA-256)',
  }),
  allowedAddresses: stringSetting({
    key: 'telemetry.allowed-addresses',
    description:
      'Addresses and CIDR blocks that may read GET /metrics without a token (comma-separated); empty: none, so /metrics is never anonymous by default.',
    defaultValue: '',
    pattern: /^[0-9A-Fa-f.:/,\s]{0,2000}$/,
    patternInWords: 'IP addresses and CIDR blocks separated by commas, or empty',
  }),
  queuePatterns: stringSetting({
    key: 'telemetry.queue-patterns',
    description:
      'Which queues get per-queue series: queue-name patterns separated by commas, `*` matching any run of characters (e.g. `orders.*, *.DLQ`); empty: every queue (internal ones excepted). Always bounded by telemetry.queue-cap.',
    defaultValue: '',
    pattern: /^[\w.*,\s$#@:/-]{0,2000}$/,
    patternInWords:
      'queue-name patterns separated by commas (letters, digits, `_ . $ # @ : / -`, and `*` as a wildcard), or empty for every queue',
  }),
  queueCap: integerSetting({
    key: 'telemetry.queue-cap',
    description: `At most this many queues get per-queue series (the deepest first); past it the exposition says it cut (flotilla_metrics_truncated 1). Hard limit ${QUEUE_HARD_CAP}.`,
    defaultValue: 2_000,
    min: 0,
    max: QUEUE_HARD_CAP,
  }),
  cache: durationSetting({
    key: 'telemetry.cache',
    description:
      'How long one computed exposition is served again before the database is read anew (scrapes within it are cheap).',
    defaultValue: '5s',
    min: '100ms',
    max: '5m',
  }),
} satisfies Record<string, SettingDeclaration>;

export const telemetrySettings: readonly SettingDeclaration[] = Object.values(TELEMETRY_SETTINGS);
