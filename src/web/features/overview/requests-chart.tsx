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
      barProps={{ radius: 3 }}
    />
  );
}
