import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { addLogContext, createLogger, type Logger, withLogContext } from './log.ts';

const PASSWORD = 'Tr0ub4dor&3-horse';
const API_TOKEN = 'as_Zk3qL0p9vXw2YtB7nM4rQ8sD1fG6hJ5k';
const BEARER = `Bearer ${API_TOKEN}`;
const BROKER_PASSWORD = 'artemis-s3cret';
const SECRETS = [PASSWORD, API_TOKEN, BROKER_PASSWORD, 'sid=0123456789abcdef'];

/** A JSON logger whose lines land in an array. */
function captured(): { log: Logger; lines: () => Record<string, unknown>[]; text: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const log = createLogger({ format: 'json', level: 'debug', destination }).child({ module: 'test' });
  const text = () => chunks.join('');
  const lines = () =>
    text()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { log, lines, text };
}

describe('structured logs', () => {
  it('keeps passwords, API tokens, bearer headers and broker credentials out of every line', () => {
    const { log, lines, text } = captured();
    log.info({ user: { username: 'alice', password: PASSWORD } }, 'signed in');
    log.warn({
      headers: { authorization: BEARER, cookie: 'sid=0123456789abcdef', accept: 'application/json' },
      response: { headers: { 'set-cookie': 'sid=0123456789abcdef' } },
    });
    log.info({ token: API_TOKEN, created: { token: API_TOKEN, name: 'ci' } }, 'token created');
    log.error(
      { cluster: { id: 'c1', credentials: { username: 'admin', password: BROKER_PASSWORD } } },
      'scrape failed',
    );
    log.info({ node: { passwordCipher: 'v1:abc:def', url: `tcp://admin:${BROKER_PASSWORD}@broker:61616` } });
    log.warn(`the caller sent ${BEARER}`);
    const failure = Object.assign(new Error(`refused for ${API_TOKEN} at http://admin:${BROKER_PASSWORD}@b:8161`), {
      password: PASSWORD,
      request: { body: { password: PASSWORD } },
      response: { body: `{"token":"${API_TOKEN}"}` },
      cause: new Error(`upstream said: ${BEARER}`),
    });
    log.error({ err: failure }, 'call failed');
    log.error(failure);
    log.info('Basic checks passed');

    const output = text();
    for (const secret of SECRETS) expect(output).not.toContain(secret);
    const all = lines();
    expect(all).toHaveLength(9);
    expect(all[0]).toMatchObject({ user: { username: 'alice', password: '[Redacted]' }, msg: 'signed in' });
    expect(all[1]).toMatchObject({
      headers: { authorization: '[Redacted]', cookie: '[Redacted]', accept: 'application/json' },
      response: { headers: { 'set-cookie': '[Redacted]' } },
    });
    expect(all[2]).toMatchObject({ token: '[Redacted]', created: { token: '[Redacted]', name: 'ci' } });
    expect(all[3]).toMatchObject({ cluster: { id: 'c1', credentials: '[Redacted]' } });
    expect(all[4]).toMatchObject({
      node: { passwordCipher: '[Redacted]', url: 'tcp://admin:[Redacted]@broker:61616' },
    });
    expect(all[5]?.msg).toBe('the caller sent Bearer [Redacted]');
    // An error is its type, message, stack and cause: what a library hung on it (request, response) stays out.
    const error = all[6]?.err as Record<string, unknown>;
    expect(Object.keys(error).sort()).toEqual(['cause', 'message', 'stack', 'type']);
    expect(error.message).toBe('refused for [Redacted] at http://admin:[Redacted]@b:8161');
    expect(error.cause).toMatchObject({ message: 'upstream said: Bearer [Redacted]' });
    expect(all[7]?.err).toMatchObject({ type: 'Error', message: error.message });
    expect(all[8]?.msg).toBe('Basic checks passed');
  });

  it('writes level, time and module, and the context where a request or job runs', async () => {
    const { log, lines } = captured();
    log.info('outside');
    await withLogContext({ requestId: 'req-1' }, async () => {
      await Promise.resolve();
      addLogContext({ principal: 'alice [token: ci]' });
      await withLogContext({ clusterId: '7a1f…' }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        log.debug({ queues: 3 }, 'scraped');
      });
      log.info('answered');
    });
    const [outside, scraped, answered] = lines();
    expect(outside).toMatchObject({ level: 'info', module: 'test', msg: 'outside' });
    expect(outside).not.toHaveProperty('requestId');
    expect(new Date(String(outside?.time)).getTime()).toBeGreaterThan(0);
    expect(scraped).toMatchObject({
      level: 'debug',
      module: 'test',
      requestId: 'req-1',
      principal: 'alice [token: ci]',
      clusterId: '7a1f…',
      queues: 3,
    });
    expect(answered).toMatchObject({ requestId: 'req-1', principal: 'alice [token: ci]' });
    expect(answered).not.toHaveProperty('clusterId');
  });
});
