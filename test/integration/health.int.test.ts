// /actuator/health/flotilla answers anyone, but only with statuses and counts: the details name clusters, broker
// management URLs and brokers' own error text, which a caller sees only with jobs:read everywhere.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthResponse } from '../../src/server/http/actuator.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn } from '@test/sign-in.ts';

let secured: SecuredRuntime;

beforeAll(async () => {
  secured = await openSecuredRuntime();
  const clusterId = await insertClusterRow(secured.runtime.prisma, { name: 'payments' });
  await secured.runtime.prisma.clusterNode.create({
    data: {
      id: randomUUID(),
      clusterId,
      managementUrl: 'http://broker-7.internal:8161/console/jolokia',
      lastFailureAt: new Date(),
      lastError: 'HTTP 500: <html>stack trace of the broker</html>',
    },
  });
});

afterAll(async () => {
  await secured.close();
});

const health = async (headers: Record<string, string> = {}) =>
  (await healthResponse(secured.runtime, new Request('http://127.0.0.1/actuator/health/flotilla', { headers }))).text();

describe('grouped health', () => {
  it('tells an anonymous caller the status and counts only', async () => {
    const text = await health();
    const body = JSON.parse(text) as { status: string; components: Record<string, unknown>; counts: object };
    expect(body.status).toBe('DEGRADED');
    expect(body.components.scrape).toEqual({ status: 'DEGRADED' });
    expect(body.counts).toMatchObject({ DEGRADED: expect.any(Number) as unknown });
    for (const secret of ['broker-7.internal', 'stack trace', 'instanceId', 'details', 'clusterId']) {
      expect(text).not.toContain(secret);
    }
  });

  it('shows the details to a signed-in caller holding jobs:read everywhere', async () => {
    const admin = await signIn(secured.rest, 'http://127.0.0.1');
    const text = await health(admin);
    expect(text).toContain('broker-7.internal');
    expect(JSON.parse(text)).toMatchObject({ instanceId: expect.any(String) as unknown });
  });
});
