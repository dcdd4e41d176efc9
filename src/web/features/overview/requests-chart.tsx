import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { DayCount } from './requests-per-day.ts';

/** Loaded on demand by the overview page only: @mantine/charts and recharts stay out of every other route. */
export default function RequestsChart({ data }: { data: DayCount[] }) {
  return (
    <BarChart
      h={220}
      data={data}
      dataKey="label"
      series={[{ name: 'requests', label: 'Requests', color: 'blue.6' }]}
      tickLine="y"
      gridAxis="y"
      yAxisProps={{ allowDecimals: false }}
      // Drawn at once: the bars growing in re-rendered the chart every frame for a second and a half, a large share of the
      // overview's main-thread time on a phone (about 400 ms at a phone's CPU).
      barProps={{ radius: 3, isAnimationActive: false }}
    />
  );
}
