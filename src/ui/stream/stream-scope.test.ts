import { describe, expect, it } from 'vitest';
import { INSTALLATION_SCOPE, streamScopeOf } from './stream-scope.ts';

const CLUSTER = '6f1c2a4e-1b2c-4d5e-8f90-0123456789ab';

describe('the stream scope of a page', () => {
  it('is the cluster for every page of a cluster layout', () => {
    expect(streamScopeOf(`/clusters/${CLUSTER}`)).toBe(CLUSTER);
    expect(streamScopeOf(`/clusters/${CLUSTER}/queues/orders`)).toBe(CLUSTER);
    expect(streamScopeOf(`/clusters/${CLUSTER.toUpperCase()}/topology`)).toBe(CLUSTER);
  });

  it('is the installation everywhere else, including paths that only look like a cluster', () => {
    expect(streamScopeOf('/admin/jobs')).toBe(INSTALLATION_SCOPE);
    expect(streamScopeOf('/clusters')).toBe(INSTALLATION_SCOPE);
    expect(streamScopeOf('/clusters/new')).toBe(INSTALLATION_SCOPE);
    expect(streamScopeOf(`/clusters/${CLUSTER}x`)).toBe(INSTALLATION_SCOPE);
  });
});
