// The stream's `events` topic of one cluster as a client reads it, in process (the web runtime's hub and replay):
// the SSE text until `until` holds or the time is up. Headers carry a Last-Event-ID for a replay.
import { handleStreamRequest } from '@/modules/kernel/stream/index.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';

export async function readEventsStream(
  web: WebRuntime,
  clusterId: string,
  headers: Record<string, string>,
  until: (text: string) => boolean,
  timeoutMs = 15_000,
): Promise<string> {
  const controller = new AbortController();
  const request = new Request(`http://127.0.0.1/api/v1/stream?clusterId=${clusterId}&topics=events`, {
    headers,
    signal: controller.signal,
  });
  const response = handleStreamRequest(
    request,
    { requestId: 'events-stream-test', actor: { name: 'test', userId: null }, sourceIp: null },
    { hub: web.stream, replay: web.replay, enabledTopics: new Set(['events']), keepAliveMs: () => 1_000 },
  );
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  try {
    while (!until(text) && Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<undefined>((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()))),
      ]);
      if (!chunk || chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    controller.abort();
    reader.releaseLock();
  }
  return text;
}
