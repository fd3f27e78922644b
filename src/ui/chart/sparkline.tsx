'use client';
// A table cell's trend (ADR 5: ECharts, canvas): one small line without axes, its last value readable by the
// accessible name. Gaps (null) stay gaps.
import { useComputedColorScheme } from '@mantine/core';
import { LineChart as EChartsLine } from 'echarts/charts';
import { GridComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([EChartsLine, GridComponent, CanvasRenderer]);

export function Sparkline({
  values,
  label,
  width = 96,
  height = 24,
}: {
  values: ReadonlyArray<number | null>;
  label: string;
  width?: number;
  height?: number;
}) {
  const element = useRef<HTMLDivElement>(null);
  const dark = useComputedColorScheme('light') === 'dark';
  useEffect(() => {
    if (!element.current) return undefined;
    const chart = echarts.init(element.current, undefined, { renderer: 'canvas', width, height });
    chart.setOption({
      animation: false,
      grid: { left: 1, right: 1, top: 2, bottom: 2 },
      xAxis: { type: 'category', show: false, data: values.map((_, index) => index) },
      yAxis: { type: 'value', show: false, scale: true },
      series: [
        {
          type: 'line',
          data: [...values],
          showSymbol: false,
          lineStyle: { width: 1.5, color: dark ? '#4dabf7' : '#1c7ed6' },
          areaStyle: { opacity: 0.12, color: dark ? '#4dabf7' : '#1c7ed6' },
        },
      ],
    });
    return () => chart.dispose();
  }, [values, width, height, dark]);
  const last = [...values].reverse().find((value) => value !== null);
  return (
    <div
      ref={element}
      role="img"
      aria-label={`${label}${last === undefined ? ', no samples' : `, now ${String(last)}`}`}
      data-testid="sparkline"
      style={{ width, height }}
    />
  );
}
