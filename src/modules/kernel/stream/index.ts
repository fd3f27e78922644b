// The stream module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { StreamHub } from './server/hub.ts';
export { STREAM_SETTINGS } from './server/stream.settings.ts';
export { ReplayRegistry } from './server/replay.ts';
export { webStreamOf } from './server/process-start.ts';
export { INSTALLATION_SCOPE_ID, STREAM_CHANNEL, parseSignal, publishSignal } from './server/signal.ts';
export { handleStreamRequest, openStream } from './server/stream-endpoint.ts';
export { parseStreamQuery, type StreamQuery } from './server/stream-query.ts';
export type { EventSourceContext, StreamEventSource } from './server/event-source.ts';
export type { StreamEvent } from './server/hub.ts';
export type { StreamSignal } from './server/signal.ts';
export { enabledStreamTopics } from './server/enabled-topics.ts';
