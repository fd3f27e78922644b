// One HTTP POST of a Jolokia bulk request to one broker node, over node:http or node:https (custom CA and optional
// client certificate through the https Agent; Node's fetch cannot take them without an extra dependency). Every
// failure leaves here as a classified ManagementError. Keep-alive and the console session cookie are reused, so a
// poll does not pay for a TCP handshake and a JAAS login every time.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type BlockList, type LookupFunction } from 'node:net';
import { isListed } from '@/base/address-list.ts';
import { kindOfHttpStatus, kindOfNetworkError, ManagementError } from './management-error.ts';

export interface ManagementEndpoint {
  /** e.g. http://127.0.0.1:8161/console/jolokia */
  readonly url: string;
  readonly user?: string;
  readonly password?: string;
  /** Sent as the Origin header; the broker's jolokia-access.xml must allow it. Default: the URL's own origin. */
  readonly origin?: string;
  /**
   * The networks this endpoint may resolve to (registration's `clusters.allowed-networks`): checked when the
   * connection is made, on the address actually dialled, so a name that resolves elsewhere later is refused too.
   */
  readonly allowedNetworks?: BlockList;
  readonly tls?: {
    /** PEM of the CA(s) that signed the broker's certificate. */
    readonly ca?: string;
    /** PEM client certificate and key, when the broker asks for one. */
    readonly cert?: string;
    readonly key?: string;
  };
}

export type JolokiaRequest =
  | { readonly type: 'read'; readonly mbean: string; readonly attribute?: string | readonly string[] }
  | {
      readonly type: 'exec';
      readonly mbean: string;
      readonly operation: string;
      readonly arguments: readonly unknown[];
    }
  | { readonly type: 'search'; readonly mbean: string }
  | { readonly type: 'version' };

export interface JolokiaResponse {
  readonly status: number;
  readonly value?: unknown;
  readonly error?: string;
  readonly error_type?: string;
}

export class JolokiaTransport {
  private readonly agent: http.Agent;
  private readonly target: URL;
  private sessionCookie: string | undefined;

  constructor(readonly endpoint: ManagementEndpoint) {
    this.target = new URL(endpoint.url);
    const lookup = endpoint.allowedNetworks ? allowedLookup(endpoint.allowedNetworks) : undefined;
    this.agent =
      this.target.protocol === 'https:'
        ? new https.Agent({
            keepAlive: true,
            ca: endpoint.tls?.ca,
            cert: endpoint.tls?.cert,
            key: endpoint.tls?.key,
            ...(lookup ? { lookup } : {}),
          })
        : new http.Agent({ keepAlive: true, ...(lookup ? { lookup } : {}) });
  }

  close(): void {
    this.agent.destroy();
  }

  /** Posts the batch; resolves with one response per request, in order. */
  async post(batch: readonly JolokiaRequest[], timeoutMs: number): Promise<JolokiaResponse[]> {
    const url = this.endpoint.url;
    const literal = this.target.hostname.replace(/^\[|\]$/g, '');
    if (this.endpoint.allowedNetworks && isIP(literal) !== 0 && !isListed(this.endpoint.allowedNetworks, literal)) {
      throw new ManagementError('network-not-allowed', `${literal} is outside the allowed networks (${url})`, url);
    }
    const { status, body } = await this.send(JSON.stringify(batch), timeoutMs);
    // Whatever answered is never quoted back: it may not be a broker, and its words are not ours to show.
    if (status !== 200) throw new ManagementError(kindOfHttpStatus(status), `HTTP ${status} from ${url}`, url);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new ManagementError(
        'unreachable',
        `${url} answered HTTP 200 without Jolokia JSON; this is probably not the web console port`,
        url,
      );
    }
    if (Array.isArray(parsed)) return parsed as JolokiaResponse[];
    // Jolokia rejects a whole batch (bad origin, malformed MBean name) with one error object instead of an array.
    if (isJolokiaResponse(parsed)) return batch.map(() => parsed);
    throw new ManagementError('unreachable', `${url} answered with JSON that is not a Jolokia reply`, url);
  }

  private headers(length: number): http.OutgoingHttpHeaders {
    const headers: http.OutgoingHttpHeaders = {
      'Content-Type': 'application/json',
      'Content-Length': length,
      Origin: this.endpoint.origin ?? this.target.origin,
    };
    if (this.endpoint.user !== undefined) {
      // Preemptive: Hawtio answers a missing Authorization with 403, not with a 401 challenge.
      const credentials = `${this.endpoint.user}:${this.endpoint.password ?? ''}`;
      headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    if (this.sessionCookie) headers.Cookie = this.sessionCookie;
    return headers;
  }

  private send(payload: string, timeoutMs: number): Promise<{ status: number; body: string }> {
    const url = this.endpoint.url;
    const client = this.target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(
        this.target,
        { method: 'POST', agent: this.agent, headers: this.headers(Buffer.byteLength(payload)) },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', (error) =>
            reject(new ManagementError(kindOfNetworkError(error), error.message, url, { cause: error })),
          );
          response.on('end', () => {
            clearTimeout(timer);
            this.rememberSession(response.headers['set-cookie']);
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      const timer = setTimeout(() => {
        request.destroy(new ManagementError('timeout', `no answer from ${url} within ${timeoutMs} ms`, url));
      }, timeoutMs);
      request.on('error', (error) => {
        clearTimeout(timer);
        if (error instanceof ManagementError) reject(error);
        else
          reject(
            new ManagementError(kindOfNetworkError(error), describeNetworkError(error, url), url, { cause: error }),
          );
      });
      request.end(payload);
    });
  }

  private rememberSession(setCookie: string[] | undefined): void {
    const session = setCookie
      ?.map((cookie) => cookie.split(';')[0] ?? '')
      .find((cookie) => cookie.startsWith('JSESSIONID='));
    if (session) this.sessionCookie = session;
  }
}

function describeNetworkError(error: Error, url: string): string {
  const code = (error as { code?: unknown }).code;
  return `${typeof code === 'string' ? `${code}: ` : ''}${error.message} (${url})`;
}

/** A DNS lookup that only ever hands the socket addresses inside `allowed`. */
function allowedLookup(allowed: BlockList): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const permitted = addresses.filter((entry) => isListed(allowed, entry.address));
      if (permitted.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves outside the allowed networks`), {
          code: 'ENETNOTALLOWED',
        });
        callback(refused, '', 0);
        return;
      }
      if (options.all) callback(null, permitted);
      else callback(null, permitted[0]?.address ?? '', permitted[0]?.family ?? 4);
    });
  };
}

function isJolokiaResponse(value: unknown): value is JolokiaResponse {
  return typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'number';
}
