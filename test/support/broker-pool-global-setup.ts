// Starts the run's shared brokers (artemis/pool.ts) before the first test file and hands their addresses to the files
// as `inject('brokerPool')`; suites take them with leaseSingleNode() / leaseCluster() (artemis/lease.ts).
import type { TestProject } from 'vitest/node';
import { acquirePool, releasePool, type BrokerPoolDescription } from './artemis/pool.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    brokerPool: BrokerPoolDescription;
  }
}

export async function setup(project: TestProject): Promise<void> {
  project.provide('brokerPool', await acquirePool());
}

export async function teardown(): Promise<void> {
  await releasePool();
}
