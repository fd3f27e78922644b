// The commands module's public entry for server code: the broker command sequence (ADR 15) that every broker write
// of the features (queues, messages, resources) runs, and the shape of its answer. Sits above clusters and broker,
// below the features (.dependency-cruiser.cjs).
export { runBrokerCommand } from './server/broker-command.ts';
export type { CommandNodeView, CommandResult, CommandRuntime } from './server/command-types.ts';
export { commandResultSchema, nodeFailureSchema } from './server/command-result.schema.ts';
