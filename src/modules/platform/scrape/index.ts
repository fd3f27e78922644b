// The scrape writer's public entry for server code. Other modules read the scraped tables through the read side's
// entry (read/index.ts), never through this one: what is left here is for tests and benchmarks that seed those
// tables as the writer would (the totals, the day partitions and the per-minute rollup).
export { refreshQueueTotals } from './server/queue-totals.ts';
export { makeDayPartitions, rollUpSamples } from './server/metric-rollup.ts';
