// Run before each broker file (the brokers project's setupFiles). The broker files share a worker's imported modules
// (ADR 38), so a worker outlives a file; what the broker module keeps per process, by design, must start empty for each
// file as it would in a process of its own. That is everything it holds per management URL: the node-state registry
// behind the `brokers` health report (the run's shared brokers keep their URLs from file to file, so one file's
// failing node would show in the next file's health report), the limiter and the cached broker name (a file's own
// broker may get a port another file's broker used before in this worker: split-brain.broker's set-up once asked its
// HA pair for capture-restart's broker name).
import { listNodeStates, releaseManagementNode } from '@/modules/platform/broker/index.ts';

for (const state of listNodeStates()) releaseManagementNode(state.nodeKey);
