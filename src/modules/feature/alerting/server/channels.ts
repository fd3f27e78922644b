// Notification channels: their configuration (the URL, for the generic webhook the signing secret, for email the
// SMTP server and its password) is sealed by the vault, bound to the channel's id, and opened only to send. A generic
// webhook gets the JSON body signed with HMAC-SHA256 in `X-Flotilla-Signature: sha256=<hex>`; a Slack-compatible
// webhook gets `{ "text": … }`; an email channel sends a plain-text message over SMTP with nodemailer (ADR 0016).
// Every send goes only where alerting.allowed-networks lets it (channel-reach.ts), to the address it checked, and
// reports no more of the answer than its status line (remote-answer.ts).
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { createTransport } from 'nodemailer';
import { z } from 'zod';
import { openSecret, processKeys, sealSecret } from '@/modules/platform/governance/index.ts';
import { ReachRefused, resolveReachable, type ChannelReach } from './channel-reach.ts';
import { smtpFailureOf, smtpStatusLineOf } from './remote-answer.ts';
import { postWebhook } from './webhook-post.ts';

export const SIGNATURE_HEADER = 'x-flotilla-signature';
const SEND_TIMEOUT_MS = 10_000;

export const channelConfigSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('webhook'),
    url: z.url({ protocol: /^https?$/ }),
    secret: z.string().min(16).max(200).optional().describe('The HMAC-SHA256 signing secret; generated when absent'),
  }),
  z.object({ kind: z.literal('slack'), url: z.url({ protocol: /^https?$/ }) }),
  z.object({
    kind: z.literal('email'),
    host: z
      .string()
      .trim()
      .min(1)
      .max(253)
      .regex(/^[A-Za-z0-9.:[\]-]+$/, 'must be a host name or an IP address')
      .describe('The SMTP server'),
    port: z.number().int().min(1).max(65_535).default(587),
    tls: z
      .enum(['starttls', 'tls', 'none'])
      .default('starttls')
      .describe(
        'starttls: plain connection upgraded by STARTTLS, refused without it (587); tls: TLS from the first byte (465); none: no TLS at all (a trusted relay only)',
      ),
    user: z.string().min(1).max(200).optional().describe('SMTP AUTH user; none: no authentication'),
    password: z.string().min(1).max(500).optional().describe('SMTP AUTH password, sealed by the vault'),
    from: z.email().max(320),
    to: z.array(z.email().max(320)).min(1).max(50),
  }),
]);
export type ChannelConfig = z.infer<typeof channelConfigSchema>;

type EmailConfig = Extract<ChannelConfig, { kind: 'email' }>;

/** The sealed configuration as stored: the secret is generated for a webhook created without one. */
type StoredConfig = { readonly url: string; readonly secret?: string } | Omit<EmailConfig, 'kind'>;

const binding = (channelId: string) => `alert_channel:${channelId}`;

function storedOf(config: ChannelConfig): StoredConfig {
  if (config.kind === 'email') {
    const { host, port, tls, user, password, from, to } = config;
    return { host, port, tls, user, password, from, to };
  }
  return config.kind === 'webhook'
    ? { url: config.url, secret: config.secret ?? randomBytes(32).toString('base64url') }
    : { url: config.url };
}

/** Shown in lists: where it goes, never a URL's path (a Slack URL is itself a secret) nor an SMTP password. */
function targetOf(config: ChannelConfig): string {
  if (config.kind !== 'email') return new URL(config.url).origin;
  return `smtp://${config.host}:${config.port} → ${config.to.join(', ')}`;
}

export function sealChannelConfig(channelId: string, config: ChannelConfig) {
  const sealed = sealSecret(processKeys(), JSON.stringify(storedOf(config)), binding(channelId));
  return { target: targetOf(config), configCipher: sealed.cipher, configKeyId: sealed.keyId };
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
  /** The alert in the console, when alerting.console-url is set. */
  readonly url?: string;
  readonly alert: {
    readonly id: string | null;
    readonly rule: string;
    readonly severity: string;
    readonly clusterId: string | null;
    /** The cluster's name when the notification was queued. */
    readonly cluster?: string | null;
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
  const text = `${head}: ${alert.rule} — ${alert.subject}${alert.value === null ? '' : ` (value ${alert.value})`}`;
  return payload.url ? `${text} <${payload.url}|Open in Flotilla>` : text;
}

/** The subject line and plain-text body of an alert's email (pure: a unit test reads them). */
export function emailOf(payload: AlertPayload): { subject: string; text: string } {
  const { alert } = payload;
  const where = alert.cluster ?? alert.clusterId;
  if (payload.event === 'test') {
    return {
      subject: `[Flotilla] Test notification — ${alert.subject}`,
      text: `This is a test notification from Flotilla through the channel "${alert.subject}".\nSent at ${alert.since ?? new Date().toISOString()}.\n`,
    };
  }
  const head = `[${alert.severity.toUpperCase()}] ${payload.event === 'firing' ? 'Firing' : 'Resolved'}`;
  const labels = Object.entries(alert.labels).map(([key, value]) => `${key}=${value}`);
  const lines = [
    `Rule: ${alert.rule}`,
    `State: ${payload.event}`,
    `Severity: ${alert.severity}`,
    `Cluster: ${where ?? '(none)'}${alert.cluster && alert.clusterId ? ` (${alert.clusterId})` : ''}`,
    `Subject: ${alert.subject}`,
    `Value: ${alert.value ?? '(none)'}`,
    `Since: ${alert.since ?? '(unknown)'}`,
    ...(labels.length > 0 ? [`Labels: ${labels.join(', ')}`] : []),
    ...(alert.id ? [`Alert: ${alert.id}`] : []),
    ...(payload.url ? [`Open in Flotilla: ${payload.url}`] : []),
  ];
  return {
    subject: `${head}: ${alert.rule} — ${alert.subject}${where ? ` on ${where}` : ''}${alert.value === null ? '' : ` (value ${alert.value})`}`,
    text: `${lines.join('\n')}\n`,
  };
}

async function sendEmail(
  config: Omit<EmailConfig, 'kind'>,
  payload: AlertPayload,
  reach: ChannelReach,
): Promise<SendOutcome> {
  const [checked] = await resolveReachable(reach, config.host);
  const name = config.host.replace(/^\[|\]$/g, '');
  const transport = createTransport({
    // The address checked, not the name (nodemailer would resolve it again); the name still verifies the certificate.
    host: checked?.address ?? name,
    ...(isIP(name) === 0 ? { servername: name } : {}),
    port: config.port,
    secure: config.tls === 'tls',
    requireTLS: config.tls === 'starttls',
    ignoreTLS: config.tls === 'none',
    auth: config.user ? { user: config.user, pass: config.password ?? '' } : undefined,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  try {
    const info = await transport.sendMail({ from: config.from, to: config.to, ...emailOf(payload) });
    const refused = info.rejected.length;
    const line = smtpStatusLineOf(info.response) ?? 'accepted (the server did not answer in SMTP)';
    return { ok: refused === 0, response: `${line}${refused > 0 ? ` (${refused} recipient(s) refused)` : ''}` };
  } catch (error) {
    // An SMTP error carries the server's answer: only its status line is kept. No password is in nodemailer's words.
    return { ok: false, response: smtpFailureOf(error) };
  } finally {
    transport.close();
  }
}

export interface SendOutcome {
  readonly ok: boolean;
  /** The status line of the answer (never its body), or why nothing was answered or nothing was sent. */
  readonly response: string;
}

/** One attempt, only where `reach` allows; never throws. */
export async function sendTo(
  channel: { id: string; kind: string; configCipher: string; configKeyId: string },
  payload: AlertPayload,
  reach: ChannelReach,
): Promise<SendOutcome> {
  try {
    const config = openChannelConfig(channel);
    if (channel.kind === 'email') return await sendEmail(config as Omit<EmailConfig, 'kind'>, payload, reach);
    if (!('url' in config)) return { ok: false, response: 'the channel has no URL' };
    const body = channel.kind === 'slack' ? JSON.stringify({ text: slackTextOf(payload) }) : JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Flotilla' };
    if (channel.kind === 'webhook' && config.secret) headers[SIGNATURE_HEADER] = signatureOf(config.secret, body);
    return await postWebhook(config.url, headers, body, reach, SEND_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof ReachRefused) return { ok: false, response: `not sent: ${error.message}` };
    // A local failure (refused connection, timeout, TLS): its message names addresses, never an answer's body.
    return { ok: false, response: (error instanceof Error ? error.message : String(error)).slice(0, 200) };
  }
}

/** Refuses (ReachRefused) a configuration whose host resolves to an address `reach` does not allow. */
export async function checkChannelReach(config: ChannelConfig, reach: ChannelReach): Promise<void> {
  await resolveReachable(reach, config.kind === 'email' ? config.host : new URL(config.url).hostname);
}

/** A value for a JSON column: Prisma's JSON input type takes any object, but not a named interface without an index signature. */
export const jsonOf = (value: object): object => value;
