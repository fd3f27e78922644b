// The capture reconcile job's summary (what the System jobs screen shows of a run): the taps' counts over the owned
// clusters, and a pass that could not run at all named apart from failed taps, with why.
import { afterEach, expect, it } from 'vitest';
import type { JobContext } from '@/modules/kernel/plugin/index.ts';
import type { CapturePassOutcome } from '../capture/capture-reconciler.ts';
import { registerCaptureRuntime } from '../capture/capture-runtime.ts';
import { run } from './capture-reconcile.job.ts';

const none = { installed: 0, updated: 0, removed: 0, refused: 0, failed: 0, live: [] };
const context = { log: () => undefined } as unknown as JobContext;
let unregister: (() => void) | undefined;

afterEach(() => unregister?.());

function owning(outcomes: CapturePassOutcome[]): void {
  unregister = registerCaptureRuntime({ reconcileOwned: () => Promise.resolve(outcomes) });
}

it('sums the taps of every owned cluster', async () => {
  owning([
    { clusterId: 'a', ...none, installed: 2, failed: 1 },
    { clusterId: 'b', ...none, removed: 1, skipped: 'locked' },
  ]);
  expect((await run(context)).summary).toBe(
    '2 owned cluster(s): 2 tap(s) installed, 1 removed, 0 refused, 1 failed, 1 held by another pass',
  );
});

it('names a pass that could not run apart from failed taps, with why', async () => {
  owning([
    { clusterId: 'a', ...none, installed: 1 },
    { clusterId: 'b', ...none, failed: 1, error: 'the secret for cluster:b:password was sealed with key none' },
  ]);
  expect((await run(context)).summary).toBe(
    '2 owned cluster(s): 1 tap(s) installed, 0 removed, 0 refused, 0 failed, 1 could not run ' +
      '(the secret for cluster:b:password was sealed with key none)',
  );
});
