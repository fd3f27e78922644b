// An HTTP proxy in front of one broker's management port that counts the Jolokia POSTs reaching the broker and the
// operations each carried: what a test needs to say "exactly one call per node" or "the backup was never asked"
// at the broker's door rather than from Flotilla's own bookkeeping. The Origin is rewritten to the broker's own, as
// Jolokia's strict CORS check expects the origin of the URL it serves.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface CountedPost {
  /** `exec` operations and `read` attributes of the bulk request, in order (e.g. `listConsumers(...)`, `read`). */
  readonly operations: readonly string[];
}

export interface CountingProxy {
  /** The management URL to register instead of the broker's. */
  readonly url: string;
  readonly posts: readonly CountedPost[];
  /** POSTs since the last reset that carried an operation starting with one of these names. */
  count(...operationPrefixes: string[]): number;
  /**
   * The POSTs, less those that only sent again the paged listings of the POST before (the management client does so
   * when a listing raced a removal on the broker): what a read's "at most n POSTs" promise is about.
   */
  firstAsks(): readonly CountedPost[];
  reset(): void;
  close(): Promise<void>;
}

function operationsOf(body: string): string[] {
  try {
    const parsed: unknown = JSON.parse(body);
    const requests = Array.isArray(parsed) ? parsed : [parsed];
    return requests.map((request: { type?: string; operation?: string }) =>
      request.type === 'exec' ? (request.operation ?? 'exec') : (request.type ?? '?'),
    );
  } catch {
    return [];
  }
}

const PAGED_LISTING = /^list\w+\(java\.lang\.String,int,int\)$/;

function repeatsListings(post: CountedPost, before: CountedPost | undefined): boolean {
  return (
    before !== undefined &&
    post.operations.length > 0 &&
    post.operations.every((operation) => PAGED_LISTING.test(operation) && before.operations.includes(operation))
  );
}

export async function startCountingProxy(managementUrl: string): Promise<CountingProxy> {
  const target = new URL(managementUrl);
  const posts: CountedPost[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (request.method === 'POST') posts.push({ operations: operationsOf(body.toString('utf8')) });
      const headers = { ...request.headers, host: target.host, origin: target.origin };
      const upstream = http.request(
        { host: target.hostname, port: target.port, path: request.url, method: request.method, headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => {
        response.writeHead(502);
        response.end();
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}${target.pathname}`,
    posts,
    count: (...prefixes) =>
      posts.filter((post) =>
        post.operations.some((operation) => prefixes.some((prefix) => operation.startsWith(prefix))),
      ).length,
    firstAsks: () => posts.filter((post, index) => !repeatsListings(post, posts[index - 1])),
    reset: () => {
      posts.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
