// The worker service of the native side (stage `pools`, the last to stop): applies the native settings to the
// pool (and re-applies them when an operator changes one), and at shutdown closes whatever long-lived users are
// left and then every pooled connection, bounded by the close timeout.
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { NATIVE_SETTING_KEYS } from './native.settings.ts';
import { nativeOptionsFrom } from './native-options.ts';
import { configureNativeOptions } from './native-pool.ts';
import { shutdown } from './shutdown.ts';

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const apply = () => configureNativeOptions(nativeOptionsFrom(context.settings));
  apply();
  const stopListening = Object.values(NATIVE_SETTING_KEYS).map((key) => context.settings.onChange(key, apply));
  return Promise.resolve({
    async stop() {
      for (const stop of stopListening) stop();
      await shutdown();
    },
  });
}
