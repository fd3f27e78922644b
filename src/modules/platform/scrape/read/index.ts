// The scrape's read side: the queries over the tables the scrape writes (queue_snapshot, queue_total, metric_sample
// and its rollup, the sweeps, the dead-letter marks) that other modules may use. The scrape writes, the features
// read: this entry is all they import of it, and nothing under read/ imports the writer (dependency-cruiser checks
// both, .dependency-cruiser.cjs).
export { QUEUE_GRID_SORT_FIELDS, readQueueGrid } from './queue-grid.ts';
export type { QueueGridFilters, QueueGridRow, QueueGridSortField } from './queue-grid.ts';
export { readQueueCounts } from './queue-counts.ts';
export { deadLetterStatusesOf } from './dead-letter-status.ts';
export { DEAD_LETTER_SORT_FIELDS, queuesNamed, readDeadLetterQueues } from './dead-letter-queues.ts';
export type { DeadLetterQuery } from './dead-letter-queues.ts';
export { queueMetricsShape } from './queue-metrics.schema.ts';
export { readQueueSeries } from './queue-series.ts';
export { readQueueTrends, trendKeyOf } from './queue-trends.ts';
export { readQueueHealthInputs } from './queue-health-inputs.ts';
export type { QueueHealthInput } from './queue-health-inputs.ts';
export { readQueueOldestAges } from './queue-oldest-age.ts';
export { readQueueGrowth } from './queue-growth.ts';
export { queueSummariesOf, searchFleetQueues } from './fleet-queues.ts';
export { readNodeSeries } from './node-series.ts';
export { readQueuesOnAddresses } from './queues-on-addresses.ts';
export type { NodeQueue } from './queues-on-addresses.ts';
export { readSweeps } from './sweeps.ts';
export type { SweepView } from './sweeps.ts';
export { readExposedQueues } from './exposed-queues.ts';
export type { ExposedQueueTotals } from './exposed-queues.ts';
