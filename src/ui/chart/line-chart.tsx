'use client';
// The console's one chart (ADR 5): Apache ECharts on canvas, only the parts a time series needs (tree-shaken),
// following the console's light or dark theme, LTTB downsampling for long series, a line per series with a legend
// and a tooltip. Modules draw through it and never import ECharts themselves.
import { useComputedColorScheme } from '@mantine/core';
import { LineChart as EChartsLine } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([EChartsLine, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface LineSeries {
  readonly key: string;
  readonly label: string;
  /** [epoch milliseconds, value]; null leaves a gap. */
  readonly points: ReadonlyArray<readonly [number, number | null]>;
}

/** Whether a series has a value with a gap on either side: no line reaches it, so it shows only as a symbol. */
function hasLonePoint(points: LineSeries['points']): boolean {
  const valueAt = (index: number) => points[index]?.[1] ?? null;
  return points.some(
    ([, value], index) => value !== null && valueAt(index - 1) === null && valueAt(index + 1) === null,
  );
}

export function LineChart({
  title,
  unit,
  series,
  height = 180,
}: {
  title: string;
  unit: string;
  series: readonly LineSeries[];
  height?: number;
}) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | undefined>(undefined);
  const dark = useComputedColorScheme('light') === 'dark';

  useEffect(() => {
    if (!element.current) return undefined;
    const instance = echarts.init(element.current, dark ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = undefined;
    };
  }, [dark]);

  useEffect(() => {
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        animation: false,
        grid: { left: 56, right: 16, top: 28, bottom: 24 },
        legend: { top: 0, type: 'scroll' },
        tooltip: { trigger: 'axis' },
        xAxis: { type: 'time' },
        yAxis: { type: 'value', name: unit, nameGap: 8, nameTextStyle: { align: 'left' } },
        series: series.map((line) => ({
          id: line.key,
          name: line.label,
          type: 'line',
          showSymbol: hasLonePoint(line.points),
          sampling: 'lttb',
          data: line.points.map(([t, value]) => [t, value]),
        })),
      },
      { notMerge: true },
    );
  }, [series, unit, dark]);

  const points = series.reduce((sum, line) => sum + line.points.length, 0);
  return (
    <figure style={{ margin: 0 }} aria-label={`${title} (${unit})`} data-testid={`chart-${title}`} data-points={points}>
      <figcaption style={{ fontSize: 14, fontWeight: 600 }}>{title}</figcaption>
      <div ref={element} style={{ width: '100%', height }} role="img" aria-label={`${title} over time, ${unit}`} />
    </figure>
  );
}
