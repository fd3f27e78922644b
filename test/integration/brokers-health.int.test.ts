// The `brokers` health indicator is answered by the web process from what the worker reports (the worker holds
// every broker connection): with the report's age, and DOWN once this instance's worker stops reporting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetNode, listNodeStates } from '@/modules/platform/broker/index.ts';
import { healthReport } from '../../src/server/http/health.ts';
import { openRuntime, type Runtime } from '../../src/server/runtime/runtime.ts';
import { startWorkerServices } from '../../worker/services.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';

let database: TestDatabase;
let web: Runtime;

beforeAll(async () => {
  // The report is of what this process has seen, and integration files share their worker process (ADR 34): an
  // earlier file's nodes (some failing, so the report DEGRADED) are forgotten, as a worker that has seen none.
  for (const state of listNodeStates()) forgetNode(state.nodeKey);
  database = await createTestDatabase();
  await queryDatabase(
    database.url,
    `INSERT INTO flotilla_setting (key, value, scope) VALUES ('broker.health.report-interval', '"200ms"', 'RUNTIME')`,
  );
  web = await openRuntime('web', { DATABASE_URL: database.url, FLOTILLA_INSTANCE_ID: 'health-test' });
});

afterAll(async () => {
  await web.close();
  await database.drop();
});

const brokersHealth = async () => (await healthReport(web)).components.brokers;

describe('the brokers health indicator', () => {
  it('reads the worker’s report with its age, and says DOWN within two report intervals of the worker stopping', async () => {
    expect(await brokersHealth()).toMatchObject({ status: 'UNKNOWN' });

    const worker = await openRuntime('worker', { DATABASE_URL: database.url, FLOTILLA_INSTANCE_ID: 'health-test' });
    const services = await startWorkerServices(worker);
    await expect.poll(async () => (await brokersHealth())?.status, { timeout: 5_000 }).toBe('UP');
    expect((await brokersHealth())?.details).toMatchObject({
      ageMs: expect.any(Number) as unknown,
      nodes: [],
      nativeConnections: {},
    });

    await services.stop();
    await worker.close();
    const stoppedAt = Date.now();
    await expect.poll(async () => (await brokersHealth())?.status, { timeout: 5_000, interval: 50 }).toBe('DOWN');
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    expect(String((await brokersHealth())?.details.reason)).toMatch(/worker last reported/);
  });
});
