import { Box, Text } from '@mantine/core';
import { countAxis } from './chart-scale.ts';
import type { DayCount } from './requests-per-day.ts';

/** The height of the bars' area (px); the day labels go below it. */
const PLOT_HEIGHT = 190;
/** Every how many days the axis names a day, so that the labels never crowd (30 days fit a phone's width). */
const LABEL_EVERY = 7;

const gridLine = 'calc(0.0625rem * var(--mantine-scale)) dashed var(--mantine-color-default-border)';

/**
 * Requests per day as bars. Plain elements laid out by the browser (flex rows, heights in percent): a chart library
 * (recharts, 119 KB gzip) took about 450 ms of a phone's main thread to draw the same 30 bars. The bars are a picture
 * for the eye (aria-hidden); the figure's hidden list says the same in words. Each bar names its day and count on
 * hover.
 */
export function RequestsChart({ data }: { data: readonly DayCount[] }) {
  const { top, ticks } = countAxis(Math.max(0, ...data.map((day) => day.requests)));
  const percent = (value: number) => `${(value / top) * 100}%`;
  return (
    <Box aria-hidden="true" data-testid="requests-chart" style={{ display: 'grid', gridTemplateColumns: 'auto 1fr' }}>
      {/* The axis: tick labels, each centred on its grid line. */}
      <Box pos="relative" h={PLOT_HEIGHT} pr={8} style={{ minWidth: '2ch' }}>
        {ticks.map((tick) => (
          <Text
            key={tick}
            size="xs"
            c="dimmed"
            pos="absolute"
            right={8}
            lh={1}
            style={{ bottom: percent(tick), transform: 'translateY(50%)' }}
          >
            {tick}
          </Text>
        ))}
        {/* The widest label holds the column's width. */}
        <Text size="xs" lh={1} style={{ visibility: 'hidden' }}>
          {top}
        </Text>
      </Box>
      <Box pos="relative" h={PLOT_HEIGHT}>
        {ticks.map((tick) => (
          <Box key={tick} pos="absolute" left={0} right={0} style={{ bottom: percent(tick), borderTop: gridLine }} />
        ))}
        <Box pos="absolute" inset={0} style={{ display: 'flex' }}>
          {data.map((day) => (
            <Box
              key={day.day}
              title={`${day.label}: ${day.requests} ${day.requests === 1 ? 'request' : 'requests'}`}
              style={{ flex: 1, minWidth: 0, display: 'flex', alignItems: 'flex-end', justifyContent: 'center' }}
            >
              <Box
                data-requests={day.requests}
                w="70%"
                h={percent(day.requests)}
                bg="var(--mantine-color-blue-6)"
                style={{ borderRadius: '3px 3px 0 0' }}
              />
            </Box>
          ))}
        </Box>
      </Box>
      <span />
      <Box style={{ display: 'flex' }} mt={6}>
        {data.map((day, index) => (
          // Centred under its bar (a flex row shares a label's overflow out to both sides, where text-align would push
          // it all to the right); the last, today's, ends at the chart's edge instead of past it.
          <Box
            key={day.day}
            style={{
              flex: 1,
              minWidth: 0,
              display: 'flex',
              justifyContent: index === data.length - 1 ? 'flex-end' : 'center',
            }}
          >
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {(data.length - 1 - index) % LABEL_EVERY === 0 ? day.label : ''}
            </Text>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
