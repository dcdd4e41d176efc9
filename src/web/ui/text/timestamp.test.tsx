import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import { NOW_TICK_MS, sharedNowListeners } from '../../lib/time/shared-now.ts';
import { formatAbsolute, formatExact } from '../../lib/time/time-format.ts';
import { Timestamp, TimestampFocusable } from './timestamp.tsx';

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const ago = (ms: number) => formatTimestamp(new Date(Date.now() - ms));

afterEach(() => {
  vi.useRealTimers();
  // The one tooltip stays in the document between renders: hide it, as moving away would.
  fireEvent.keyDown(document, { key: 'Escape' });
});

describe('Timestamp', () => {
  it('shows a recent time relative and an older one as the absolute date', () => {
    const old = '2025-01-02 03:04:05.000';
    render(
      <>
        <Timestamp value={ago(3 * 60_000 + 5_000)} />
        <Timestamp value={old} />
      </>,
    );
    expect(screen.getByText(rtf.format(-3, 'minute'))).toBeInTheDocument();
    expect(screen.getByText(formatAbsolute(Date.UTC(2025, 0, 2, 3, 4, 5)))).toBeInTheDocument();
  });

  it('gives the exact time on keyboard focus and on hover, and to screen readers; Escape hides it', () => {
    const value = '2025-01-02 03:04:05.000';
    const exact = formatExact(Date.UTC(2025, 0, 2, 3, 4, 5));
    const { container } = render(<Timestamp value={value} />);
    const time = container.querySelector('time') as HTMLElement;
    expect(time).toHaveAttribute('datetime', '2025-01-02T03:04:05.000Z');
    // The exact time is part of what a screen reader reads, not only of the tooltip.
    expect(time).toHaveTextContent(exact);
    expect(screen.queryByRole('tooltip')).toBeNull();

    // A keyboard reaches it.
    expect(time.tabIndex).toBe(0);
    act(() => time.focus());
    expect(screen.getByRole('tooltip')).toHaveTextContent(exact);
    fireEvent.keyDown(time, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => time.blur());

    fireEvent.pointerOver(time);
    expect(screen.getByRole('tooltip')).toHaveTextContent(exact);
    fireEvent.pointerOut(time, { relatedTarget: document.body });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it("is no Tab stop inside a list's rows, where the exact time is still read out and shown on hover", () => {
    const value = '2025-01-02 03:04:05.000';
    const exact = formatExact(Date.UTC(2025, 0, 2, 3, 4, 5));
    const { container } = render(
      <TimestampFocusable value={false}>
        <Timestamp value={value} />
      </TimestampFocusable>,
    );
    const time = container.querySelector('time') as HTMLElement;
    expect(time).not.toHaveAttribute('tabindex');
    expect(time).toHaveTextContent(exact);
    fireEvent.pointerOver(time);
    expect(screen.getByRole('tooltip')).toHaveTextContent(exact);
    fireEvent.pointerOut(time, { relatedTarget: document.body });
  });

  it('says a missing or unreadable value plainly, without a tooltip', () => {
    render(
      <>
        <Timestamp value={null} />
        <Timestamp value={undefined} empty="never" />
        <Timestamp value="not a time" />
      </>,
    );
    expect(screen.getByText('—')).toBeInTheDocument();
    expect(screen.getByText('never')).toBeInTheDocument();
    expect(screen.getByText('not a time')).toBeInTheDocument();
    expect(document.querySelector('time')).toBeNull();
  });

  it('moves relative times on with one shared clock, not a timer per time', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const timers = vi.spyOn(globalThis, 'setInterval');
    const value = ago(10_000);
    const { unmount } = render(
      <>
        {Array.from({ length: 50 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fifty identical rows
          <Timestamp key={index} value={value} />
        ))}
      </>,
    );
    expect(screen.getAllByText('just now')).toHaveLength(50);
    expect(sharedNowListeners()).toBe(50);
    expect(timers).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(2 * NOW_TICK_MS));
    expect(screen.getAllByText(rtf.format(-1, 'minute'))).toHaveLength(50);
    unmount();
    expect(sharedNowListeners()).toBe(0);
    timers.mockRestore();
  });
});
