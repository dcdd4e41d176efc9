import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { type Ref, type RefObject, useCallback, useImperativeHandle, useLayoutEffect, useState } from 'react';

export interface VirtualTableHandle {
  /** Brings a row into the rendered window (and view); rows outside it are not in the DOM. */
  scrollToIndex(index: number): void;
}

export interface WindowListOptions<T> {
  /** The element the rows start in: its distance from the page top is the virtualizer's scroll margin. */
  start: RefObject<HTMLElement | null>;
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** A row's height (px) including any gap: exact for table rows, a first guess for measured cards. */
  estimateSize: number;
  overscan: number;
  handle?: Ref<VirtualTableHandle> | undefined;
}

/** The virtualizer both list renderings (table rows, cards) share: against the window scroll, keyed by row. */
export function useWindowList<T>({ start, rows, rowKey, estimateSize, overscan, handle }: WindowListOptions<T>) {
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const element = start.current;
    if (!element) return;
    // Content above the list (a banner, the toolbar wrapping) moves it: measured again whenever the page resizes.
    const measure = () => setScrollMargin(element.getBoundingClientRect().top + window.scrollY);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(document.body);
    return () => observer?.disconnect();
  }, [start]);

  // Stable while the rows are: the virtualizer rebuilds its measurements of every row (50,000 objects) whenever
  // getItemKey changes, and the list renders on every scroll frame.
  const getItemKey = useCallback(
    (index: number) => {
      const row = rows[index];
      return row === undefined ? index : rowKey(row);
    },
    [rows, rowKey],
  );
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => estimateSize,
    overscan,
    scrollMargin,
    getItemKey,
    // Rows coming into view render in their own task rather than inside the scroll event: the browser's style,
    // layout and paint of the frame no longer add up with React's render into one long task, and scroll events
    // that arrive while a render is pending share it.
    useFlushSync: false,
  });

  useImperativeHandle(
    handle,
    () => ({ scrollToIndex: (index: number) => virtualizer.scrollToIndex(index, { align: 'auto' }) }),
    [virtualizer],
  );
  return virtualizer;
}
