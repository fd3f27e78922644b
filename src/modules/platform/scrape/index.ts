// The scrape module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { QUEUE_GRID_SORT_FIELDS, readQueueGrid } from './server/queue-grid.ts';
export type { QueueGridFilters, QueueGridRow, QueueGridSortField } from './server/queue-grid.ts';
export { readQueueCounts, refreshQueueTotals } from './server/queue-totals.ts';
export { deadLetterStatusesOf } from './server/dead-letter-settings.ts';
export { DEAD_LETTER_SORT_FIELDS, queuesNamed, readDeadLetterQueues } from './server/dead-letter-queues.ts';
export type { DeadLetterQuery } from './server/dead-letter-queues.ts';
export { queueMetricsShape } from './server/queue-metrics.schema.ts';
export { readQueueSeries } from './server/queue-series.ts';
export { readQueueTrends, trendKeyOf } from './server/queue-trends.ts';
export { readQueueHealthInputs } from './server/queue-health-inputs.ts';
export type { QueueHealthInput } from './server/queue-health-inputs.ts';
export { readQueueOldestAges } from './server/queue-oldest-age.ts';
export { readQueueGrowth } from './server/queue-growth.ts';
export { queueSummariesOf, searchFleetQueues } from './server/fleet-queues.ts';
export { readNodeSeries } from './server/node-series.ts';
export { makeDayPartitions, rollUpSamples } from './server/metric-rollup.ts';
