// Notification channels: their configuration (the URL, and for the generic webhook the signing secret) is sealed by
// the vault, bound to the channel's id, and opened only to send. A generic webhook gets the JSON body signed with
// HMAC-SHA256 in `X-Flotilla-Signature: sha256=<hex>`; a Slack-compatible webhook gets `{ "text": … }`.
import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { openSecret, processKeys, sealSecret } from '@/modules/platform/governance/index.ts';

export const SIGNATURE_HEADER = 'x-flotilla-signature';
const SEND_TIMEOUT_MS = 10_000;

export const channelConfigSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('webhook'),
    url: z.url({ protocol: /^https?$/ }),
    secret: z.string().min(16).max(200).optional().describe('The HMAC-SHA256 signing secret; generated when absent'),
  }),
  z.object({ kind: z.literal('slack'), url: z.url({ protocol: /^https?$/ }) }),
]);
export type ChannelConfig = z.infer<typeof channelConfigSchema>;

/** The sealed configuration as stored: the secret is generated for a webhook created without one. */
interface StoredConfig {
  readonly url: string;
  readonly secret?: string;
}

const binding = (channelId: string) => `alert_channel:${channelId}`;

export function sealChannelConfig(channelId: string, config: ChannelConfig) {
  const stored: StoredConfig =
    config.kind === 'webhook'
      ? { url: config.url, secret: config.secret ?? randomBytes(32).toString('base64url') }
      : { url: config.url };
  const sealed = sealSecret(processKeys(), JSON.stringify(stored), binding(channelId));
  // Shown in lists: where it goes, never its path (a Slack URL is itself a secret).
  return { target: new URL(config.url).origin, configCipher: sealed.cipher, configKeyId: sealed.keyId };
}

function openChannelConfig(channel: { id: string; configCipher: string; configKeyId: string }): StoredConfig {
  const opened = openSecret(
    processKeys(),
    { cipher: channel.configCipher, keyId: channel.configKeyId },
    binding(channel.id),
  );
  return JSON.parse(opened.toString('utf8')) as StoredConfig;
}

export const signatureOf = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export interface AlertPayload {
  readonly event: 'firing' | 'resolved' | 'test';
  readonly alert: {
    readonly id: string | null;
    readonly rule: string;
    readonly severity: string;
    readonly clusterId: string | null;
    readonly subject: string;
    readonly state: string;
    readonly value: number | null;
    readonly since: string | null;
    readonly labels: Record<string, string>;
  };
}

function slackTextOf(payload: AlertPayload): string {
  const { alert } = payload;
  const head = payload.event === 'test' ? 'Test from Flotilla' : `[${alert.severity.toUpperCase()}] ${payload.event}`;
  return `${head}: ${alert.rule} — ${alert.subject}${alert.value === null ? '' : ` (value ${alert.value})`}`;
}

export interface SendOutcome {
  readonly ok: boolean;
  /** The HTTP status and the first characters of the answer, or why nothing was answered. */
  readonly response: string;
}

/** One attempt; never throws. */
export async function sendTo(
  channel: { id: string; kind: string; configCipher: string; configKeyId: string },
  payload: AlertPayload,
): Promise<SendOutcome> {
  try {
    const config = openChannelConfig(channel);
    const body = channel.kind === 'slack' ? JSON.stringify({ text: slackTextOf(payload) }) : JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Flotilla' };
    if (channel.kind === 'webhook' && config.secret) headers[SIGNATURE_HEADER] = signatureOf(config.secret, body);
    const response = await fetch(config.url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    const text = (await response.text()).slice(0, 200);
    return { ok: response.ok, response: `${response.status} ${text}`.trim() };
  } catch (error) {
    return { ok: false, response: error instanceof Error ? error.message : String(error) };
  }
}

/** A value for a JSON column: Prisma's JSON input type takes any object, but not a named interface without an index signature. */
export const jsonOf = (value: object): object => value;
