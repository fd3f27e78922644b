// The host's reading of what a plugin process sends (protocol.ts): the child runs third-party code, so anything
// malformed is dropped and anything oversized is cut, never trusted.
import { describe, expect, it } from 'vitest';
import { parseChildMessage } from './protocol.ts';

describe('parseChildMessage', () => {
  it('drops what is not a known message', () => {
    for (const junk of [
      null,
      42,
      'ready',
      [],
      {},
      { t: 'unknown' },
      { t: 'result' },
      { t: 'request', rid: 1, op: 'exec' },
    ])
      expect(parseChildMessage(junk)).toBeUndefined();
    expect(
      parseChildMessage({ t: 'ready', registered: { routes: [{ method: 1 }], jobs: [], tools: [], panels: [] } }),
    ).toBe(undefined);
  });

  it('keeps only the fields the host reads', () => {
    expect(parseChildMessage({ t: 'pong', extra: 'x' })).toEqual({ t: 'pong' });
    expect(parseChildMessage({ t: 'request', rid: 2, op: 'settings', key: 'prefix', method: 'x' })).toEqual({
      t: 'request',
      rid: 2,
      op: 'settings',
      key: 'prefix',
    });
  });

  it('normalises errors and log lines', () => {
    expect(parseChildMessage({ t: 'result', cid: 1, ok: false, error: 'boom' })).toEqual({
      t: 'result',
      cid: 1,
      ok: false,
      error: { message: 'unknown error' },
    });
    const long = parseChildMessage({ t: 'activate-failed', error: { message: 'x'.repeat(5_000), code: 7 } });
    expect(long).toEqual({ t: 'activate-failed', error: { message: 'x'.repeat(2_000) } });
    expect(parseChildMessage({ t: 'log', level: 'debug', message: 'hi', fields: [1] })).toEqual({
      t: 'log',
      level: 'info',
      message: 'hi',
    });
  });
});
