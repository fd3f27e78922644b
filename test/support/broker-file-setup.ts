// Run before each broker file (the brokers project's setupFiles). The broker files share a worker's imported modules
// (ADR 38), so a worker outlives a file; what the broker module keeps per process, by design, must start empty for each
// file as it would in a process of its own. That is the node-state registry behind the `brokers` health report: it is
// keyed by management URL, and the run's shared brokers keep their URLs from file to file, so one file's failing node
// would show in the next file's health report.
import { forgetNode, listNodeStates } from '@/modules/platform/broker/index.ts';

for (const state of listNodeStates()) forgetNode(state.nodeKey);
