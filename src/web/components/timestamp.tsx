import { Text, type TextProps, Tooltip } from '@mantine/core';
import { parseTimestamp } from '../../shared/contract/index.ts';
import { relativeTime } from '../lib/relative-time.ts';

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export interface TimestampProps extends TextProps {
  value: string | null | undefined;
  /** Show "5 minutes ago" instead of the local date and time. */
  relative?: boolean;
  /** Rows of long virtualized lists use the browser's own tooltip: a Mantine one per cell costs scrolling frames. */
  plain?: boolean;
}

/** A server timestamp in local time, with the exact UTC value on hover. */
export function Timestamp({ value, relative = false, plain = false, ...textProps }: TimestampProps) {
  const date = value ? parseTimestamp(value) : null;
  if (!date) {
    return (
      <Text span size="sm" c="dimmed" {...textProps}>
        {value || '—'}
      </Text>
    );
  }
  const utc = `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
  const label = relative ? `${localFormat.format(date)} · ${utc}` : utc;
  if (plain) {
    return (
      <Text span size="sm" title={label} {...textProps}>
        <time dateTime={date.toISOString()}>{relative ? relativeTime(date) : localFormat.format(date)}</time>
      </Text>
    );
  }
  return (
    <Tooltip label={label}>
      <Text span size="sm" {...textProps}>
        <time dateTime={date.toISOString()}>{relative ? relativeTime(date) : localFormat.format(date)}</time>
      </Text>
    </Tooltip>
  );
}
