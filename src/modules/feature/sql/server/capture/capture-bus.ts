// The capture bus: where every drained capture message goes. The index writer first (a consumer acknowledges only
// once `accept` resolves, that is once the rows are committed), then every listener contributed to
// `sql.captured-messages` (the request-reply correlator, for one), in clear: a listener governs what it keeps.
// A listener's failure is logged and never holds up the capture.
import { createExtensionPoint, type ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import type { CapturedMessage } from '../index/stored-message.ts';
import type { CaptureSink } from './capture-consumers.ts';
import { logger } from '@/base/log/log.ts';

const captureLog = logger('sql');

/** A module's listener to captured messages, after they are in the index. */
export type CapturedMessageListener = (messages: readonly CapturedMessage[]) => void | Promise<void>;

export interface CapturedMessageListenerDeclaration {
  readonly id: string;
  readonly load: () => Promise<CapturedMessageListener>;
}

/** Listeners to every captured message once it is in the index (the request-reply correlator, for one). */
export const capturedMessageListeners = createExtensionPoint<CapturedMessageListenerDeclaration>({
  id: 'sql.captured-messages',
  owner: 'sql',
  cardinality: 'many',
});

export class CaptureBus implements CaptureSink {
  private listeners: Promise<Array<{ id: string; listener: CapturedMessageListener }>> | undefined;

  constructor(
    private readonly writer: CaptureSink,
    private readonly declared: () => readonly CapturedMessageListenerDeclaration[],
    private readonly log: (message: string) => void = (message) => captureLog.error(message),
  ) {}

  async accept(messages: readonly CapturedMessage[]): Promise<void> {
    await this.writer.accept(messages);
    for (const { id, listener } of await this.loaded()) {
      Promise.resolve()
        .then(() => listener(messages))
        .catch((error: unknown) =>
          this.log(`listener ${id}: ${error instanceof Error ? error.message : String(error)}`),
        );
    }
  }

  private loaded() {
    this.listeners ??= Promise.all(
      this.declared().map(async (declaration) => ({ id: declaration.id, listener: await declaration.load() })),
    );
    return this.listeners;
  }
}

/** The contributions to the point from the enabled modules of the registry. */
export function listenersOf(registry: ModuleRegistry): () => CapturedMessageListenerDeclaration[] {
  return () => registry.contributionsTo(capturedMessageListeners).map((contribution) => contribution.value);
}
