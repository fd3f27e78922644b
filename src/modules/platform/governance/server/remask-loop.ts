// The loop every store of governed content runs in a worker service to stay under the policy in force: each tick it
// rewrites pending rows in batches (the store's own `remaskBatch`) until none is left or the tick's budget is spent,
// so a policy change reaches every stored row without one long transaction; several instances share the rows when
// the store locks them with SKIP LOCKED.
import { logger } from '@/base/log/log.ts';

const log = logger('governance');
const BATCH = 500;
const BATCHES_PER_TICK = 40;

export interface RemaskLoop {
  stop(): Promise<void>;
}

export function startRemaskLoop(options: {
  /** Rewrites up to `limit` pending rows and answers how many it took. */
  readonly remaskBatch: (limit: number) => Promise<number>;
  /** The pause between ticks, read anew after each (a setting may change it). */
  readonly intervalMs: () => number;
  /** Names the store in the log line of a failed tick. */
  readonly label: string;
}): RemaskLoop {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    for (let batch = 0; batch < BATCHES_PER_TICK && !stopped; batch++) {
      if ((await options.remaskBatch(BATCH)) < BATCH) return;
    }
  };
  const loop = () => {
    if (stopped) return;
    running = tick()
      .catch((error: unknown) => log.error({ err: error, loop: options.label }, 'remask failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, options.intervalMs());
      });
  };
  loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
