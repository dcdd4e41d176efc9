import { Text, type TextProps } from '@mantine/core';
import type { CSSProperties } from 'react';
import { parseTimestamp } from '../../shared/contract/index.ts';
import { relativeTime } from '../lib/relative-time.ts';
import { LazyTooltip } from './lazy-tooltip.tsx';
import text from './row-text.module.css';

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** What a timestamp shows, and the exact value for its hover text; null when the value is not a date. */
function describe(value: string | null | undefined, relative: boolean) {
  const date = value ? parseTimestamp(value) : null;
  if (!date) return null;
  const utc = `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
  return {
    iso: date.toISOString(),
    shown: relative ? relativeTime(date) : localFormat.format(date),
    label: relative ? `${localFormat.format(date)} · ${utc}` : utc,
  };
}

export interface TimestampProps extends TextProps {
  value: string | null | undefined;
  /** Show "5 minutes ago" instead of the local date and time. */
  relative?: boolean;
}

/** A server timestamp in local time, with the exact UTC value on hover. */
export function Timestamp({ value, relative = false, ...textProps }: TimestampProps) {
  const described = describe(value, relative);
  if (!described) {
    return (
      <Text span size="sm" c="dimmed" {...textProps}>
        {value || '—'}
      </Text>
    );
  }
  return (
    <LazyTooltip label={described.label}>
      <Text span size="sm" {...textProps}>
        <time dateTime={described.iso}>{described.shown}</time>
      </Text>
    </LazyTooltip>
  );
}

export interface RowTimestampProps {
  value: string | null | undefined;
  relative?: boolean;
  size?: 'xs' | 'sm';
  dimmed?: boolean;
  style?: CSSProperties;
}

/**
 * Timestamp for the rows and cards of long lists: the browser's own tooltip, and plain elements. A Mantine tooltip
 * and text per cell cost the list's first render and its scrolling frames.
 */
export function RowTimestamp({ value, relative = false, size = 'sm', dimmed = false, style }: RowTimestampProps) {
  const described = describe(value, relative);
  const className = `${text[size]}${dimmed || !described ? ` ${text.dimmed}` : ''}`;
  if (!described) {
    return (
      <span className={className} style={style}>
        {value || '—'}
      </span>
    );
  }
  return (
    <span className={className} style={style} title={described.label}>
      <time dateTime={described.iso}>{described.shown}</time>
    </span>
  );
}
