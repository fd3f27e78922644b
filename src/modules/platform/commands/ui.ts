// The commands module's public entry for the browser: the operation dialog every broker write of the console goes
// through (dry run, confirmation, per-node outcome) and the count format it shows. Server code stays out of it.
export { formatCount, type CommandResult } from './ui/command-nodes.tsx';
export { OperationDialog } from './ui/operation-dialog.tsx';
export type { OperationSpec, RunFlags } from './ui/operation-spec.ts';
