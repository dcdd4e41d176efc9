import {
  measureElement as measureReported,
  type observeWindowRect,
  useWindowVirtualizer,
  windowScroll,
} from '@tanstack/react-virtual';
import { type Ref, type RefObject, useCallback, useImperativeHandle, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

type ObserveRect = typeof observeWindowRect;

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

/** Where a list starts (px from the page top) before any has been laid out: below the app header, a page header and
 * a toolbar (a desktop's queue starts at ~300). */
const FIRST_GUESS_PX = 200;
/** Where the last list started: the next page's list most likely starts there too. */
let lastScrollMargin: number | undefined;

/**
 * A measured row's height as its ResizeObserver reports it, after the browser's own layout. The virtualizer also
 * measures each row as its element mounts, by reading its height: in the commit that builds the page, that lays the
 * whole new page out in the middle of the commit (about 100 ms of one task on a phone's CPU). Until the observer has
 * reported, a row keeps its last known height or the estimate; the rows are in normal flow, so only the list's total
 * height waits a frame for the real ones.
 */
const measureObserved: typeof measureReported = (element, entry, instance) => {
  if (entry) return measureReported(element, entry, instance);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
};

/**
 * Follows the window's size from its resize events. The virtualizer's own version also reads the size when it mounts,
 * and reading the window's size lays out the whole new page in the middle of the commit that builds it; the size at
 * mount is the initialRect it was given.
 */
const observeWindowResize: ObserveRect = (instance, onChange) => {
  const target = instance.scrollElement;
  if (!target) return;
  const resized = () => onChange({ width: target.innerWidth, height: target.innerHeight });
  target.addEventListener('resize', resized, { passive: true });
  return () => target.removeEventListener('resize', resized);
};

/** The virtualizer both list renderings (table rows, cards) share: against the window scroll, keyed by row. */
export function useWindowList<T>({ start, rows, rowKey, estimateSize, overscan, handle }: WindowListOptions<T>) {
  // Until the page is laid out, the list's top is a guess (where the last list was, or below a page's header and
  // toolbar) and there is no overscan (rows out of view, for smooth scrolling): the first render, in the commit that
  // builds the whole page, builds only about the rows in view. A wrong guess never shows: the layout below corrects
  // it before paint, and adds the overscan after it.
  const [scrollMargin, setScrollMargin] = useState(() => lastScrollMargin ?? FIRST_GUESS_PX);
  const [laidOut, setLaidOut] = useState(false);
  useLayoutEffect(() => {
    const element = start.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    // Measured when the browser lays the page out anyway (a ResizeObserver's first call comes after layout, before
    // paint), not by reading layout here: that would lay out the whole new page in the middle of its first commit,
    // and again once the rows are in. Content above the list (a banner, the toolbar wrapping) moves it: measured
    // again whenever the page resizes.
    const observer = new ResizeObserver(() => {
      const margin = element.getBoundingClientRect().top + window.scrollY;
      lastScrollMargin = margin;
      // The rows for the right offset are in this frame's paint: what the page shows is settled before anyone sees
      // it. The overscan (rows out of view) renders in a task after that paint, not as part of it.
      flushSync(() => setScrollMargin(margin));
      setLaidOut(true);
    });
    observer.observe(document.body);
    return () => observer.disconnect();
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
  // The virtualizer is created with the window's scroll offset and, when it mounts, writes that same offset back to
  // the window: a no-op for the page, but the write makes the browser lay out the whole new page in the middle of
  // its first commit. Only that one write is skipped; every later one (scrollToIndex, keeping rows in place) goes
  // through.
  const [initialOffset] = useState(() => (typeof window === 'undefined' ? 0 : window.scrollY));
  const mountWrite = useRef(true);
  const scrollToFn = useCallback<typeof windowScroll>(
    (offset, options, instance) => {
      const first = mountWrite.current;
      mountWrite.current = false;
      if (first && offset === initialOffset && !options.adjustments && !options.behavior) return;
      windowScroll(offset, options, instance);
    },
    [initialOffset],
  );
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => estimateSize,
    overscan: laidOut ? overscan : 0,
    scrollMargin,
    // The window's size from the start, so the first render already has rows (rather than none until the
    // virtualizer has mounted and measured the window, and a second render with them).
    initialRect: typeof window === 'undefined' ? undefined : { width: window.innerWidth, height: window.innerHeight },
    initialOffset,
    scrollToFn,
    getItemKey,
    measureElement: measureObserved,
    observeElementRect: observeWindowResize,
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
