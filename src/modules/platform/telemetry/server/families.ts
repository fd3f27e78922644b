// A small builder for metric families, so each collector reads as the list of what it exposes.
import type { MetricFamily, MetricSample } from './metric-source.ts';

export function gauge(
  name: string,
  help: string,
  labelNames: readonly string[],
  samples: readonly MetricSample[],
): MetricFamily {
  return { name, help, type: 'gauge', labelNames, samples };
}

/** Samples of the rows that have a value (null and undefined left out: "not known" is no zero). */
export function samplesOf<Row>(
  rows: readonly Row[],
  labels: (row: Row) => Record<string, string>,
  value: (row: Row) => number | null | undefined,
): MetricSample[] {
  return rows.flatMap((row) => {
    const measured = value(row);
    return measured === null || measured === undefined || !Number.isFinite(measured)
      ? []
      : [{ labels: labels(row), value: measured }];
  });
}
