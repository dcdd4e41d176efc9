import { type CSSProperties, createContext, useContext } from 'react';
import { useSharedNow } from '../../lib/time/shared-now.ts';
import { formatExact, formatTime, timestampMs } from '../../lib/time/time-format.ts';
import text from './row-text.module.css';
import { installTimeTooltip, TIME_TIP_ATTRIBUTE } from './time-tooltip.ts';
import classes from './timestamp.module.css';

export interface TimestampProps {
  /** A server timestamp (seed shape or ISO 8601). */
  value: string | null | undefined;
  size?: 'xs' | 'sm';
  dimmed?: boolean;
  style?: CSSProperties;
  /** Shown when there is no time at all (default "—"). */
  empty?: string;
}

/**
 * Whether a time is a Tab stop of its own, so a keyboard reaches its exact time as a pointer does. A list's rows say
 * no (ListTable): a stop per row's time would double the Tabs through a list to reach its actions; there the exact
 * time is still read out to screen readers, shown on hover, and on the row's own page a Tab away.
 */
export const TimestampFocusable = createContext(true);

const exactTexts = new Map<number, string>();
/** The exact text of a moment, made once per distinct moment (a list's rows show the same ones on every render). */
function exactOf(at: number): string {
  let exact = exactTexts.get(at);
  if (exact === undefined) {
    exact = formatExact(at);
    if (exactTexts.size >= 10_000) exactTexts.clear();
    exactTexts.set(at, exact);
  }
  return exact;
}

/**
 * A server time, the one way the dashboard shows one: "3 minutes ago" within a day, "26 Nov 2026, 15:04" beyond
 * it, and the exact time (seconds, zone, UTC) on hover and on keyboard focus, and to screen readers. Plain elements
 * and one shared clock and tooltip: lists show one on every row.
 */
export function Timestamp({ value, size = 'sm', dimmed = false, style, empty = '—' }: TimestampProps) {
  const at = value ? timestampMs(value) : null;
  const focusable = useContext(TimestampFocusable);
  const shown = useSharedNow((now) => (at === null ? null : formatTime(at, now)));
  const className = `${text[size]}${dimmed || at === null ? ` ${text.dimmed}` : ''}`;
  if (at === null || shown === null) {
    return (
      <span className={className} style={style}>
        {value || empty}
      </span>
    );
  }
  installTimeTooltip();
  const tipProps = { [TIME_TIP_ATTRIBUTE]: '' };
  return (
    <span className={className} style={style}>
      {/* Focusable (outside a list's rows), so a keyboard reaches the exact time as a mouse does. */}
      <time
        dateTime={new Date(at).toISOString()}
        tabIndex={focusable ? 0 : undefined}
        className={classes.time}
        {...tipProps}
      >
        {shown}
        <span className={classes.hidden}>, {exactOf(at)}</span>
      </time>
    </span>
  );
}
