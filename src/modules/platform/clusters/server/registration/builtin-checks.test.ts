import { describe, expect, it } from 'vitest';
import { capabilities } from './builtin-checks.ts';

describe('capabilities check', () => {
  const probe = (value: 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN') => ({
    clusterName: 'c',
    username: 'u',
    nodes: [],
    capabilities: { MANAGEMENT_READ: { value, detail: 'why', snippet: value === 'UNAVAILABLE' ? '<x/>' : undefined } },
    call: () => Promise.resolve([]),
  });

  it('fails without management read, warns when it could not be checked', async () => {
    expect(await capabilities.run(probe('UNAVAILABLE'))).toMatchObject({ status: 'fail', snippet: '<x/>' });
    expect(await capabilities.run(probe('UNKNOWN'))).toMatchObject({ status: 'warn' });
    expect(await capabilities.run(probe('AVAILABLE'))).toMatchObject({ status: 'ok' });
  });
});
