// @flotilla/client: every REST operation as a typed function (src/generated, made from openapi.json by
// `npm run client:generate` in the repository), and `flotillaClient`, which points them at one Flotilla with an API
// token. An error answer is RFC 9457 problem+json; `FlotillaProblem` carries it when a call is made to throw.
import { createClient, createConfig, type Client } from './generated/client/index.ts';

export * from './generated/index.ts';

export interface FlotillaClientOptions {
  /** Where Flotilla answers, e.g. https://flotilla.example.com (the API is under /api/v1). */
  readonly url: string;
  /** An API token (Account → API tokens): its owner's permissions, narrowed to the token's scope. */
  readonly token: string;
  /** A fetch of your own (a proxy, a test double); the platform's by default. */
  readonly fetch?: typeof fetch;
}

/** A problem+json answer: its type, status and detail, as Flotilla sent them. */
export class FlotillaProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: { readonly type?: string; readonly title?: string; readonly detail?: string },
  ) {
    super(`${String(status)} ${problem.title ?? 'Error'}${problem.detail ? `: ${problem.detail}` : ''}`);
    this.name = 'FlotillaProblem';
  }
}

/** A client for one Flotilla: pass it as `client` to any operation, e.g. `clustersList({ client })`. */
export function flotillaClient(options: FlotillaClientOptions): Client {
  const client = createClient(
    createConfig({
      baseUrl: new URL('/api/v1', options.url).toString(),
      auth: options.token,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
  );
  // Thrown errors (throwOnError: true) become FlotillaProblem, with the answer's status.
  client.interceptors.error.use(
    (error, response) =>
      new FlotillaProblem(
        response.status,
        typeof error === 'object' && error !== null ? error : { detail: String(error) },
      ),
  );
  return client;
}
