import type { Tooltip, TooltipProps } from '@mantine/core';
import {
  cloneElement,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { loadOnce } from '../../lib/loading/load-once.ts';

type TooltipComponent = typeof Tooltip;

/** Mantine's Tooltip, fetched once for every lazy tooltip; a failed fetch is tried again at the next hover. */
const tooltipCode = loadOnce(() => import('./mantine-tooltip.ts').then((module) => module.Tooltip));

/** What the trigger must accept: a ref to its element and the handlers that arm the tooltip. */
export interface TriggerProps {
  ref?: Ref<HTMLElement>;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
}

export interface LazyTooltipProps {
  label: ReactNode;
  /** What opens it, as Mantine's Tooltip takes them; by default the mouse only (not focus, not touch). */
  events?: TooltipProps['events'];
  /** One element that takes a ref (a Mantine component, a button). */
  children: ReactElement<TriggerProps>;
  /** A label of several lines, this wide (px), as Mantine's Tooltip takes them. */
  multiline?: boolean;
  w?: number;
}

const MOUSE_ONLY = { hover: true, focus: false, touch: false };

/**
 * A Mantine Tooltip made when it is first wanted (the mouse comes over the trigger, or the focus or a touch when
 * `events` says so). Until then the trigger renders alone: a Tooltip puts Floating UI (the `overlays` chunk) on the
 * critical path of every page that shows one, and its hooks in the page's first render, for a hover that may never
 * come.
 */
export function LazyTooltip({ label, events = MOUSE_ONLY, children, multiline, w }: LazyTooltipProps) {
  const [armed, setArmed] = useState<{ Tooltip: TooltipComponent; opened: boolean } | null>(null);
  const trigger = useRef<HTMLElement>(null);
  // Still over or in the trigger when the Tooltip arrives: it opens at once.
  const wanted = useRef(false);
  // Wrapping the trigger in the Tooltip mounts it anew: keep the focus on it if it had it.
  const hadFocus = useRef(false);
  useLayoutEffect(() => {
    if (armed && hadFocus.current) trigger.current?.focus();
  }, [armed]);
  const ref = (node: HTMLElement | null) => {
    trigger.current = node;
    const outer = children.props.ref;
    if (typeof outer === 'function') outer(node);
    else if (outer) outer.current = node;
  };
  if (armed) {
    const { Tooltip: MantineTooltip, opened } = armed;
    return (
      <MantineTooltip label={label} events={events} defaultOpened={opened} multiline={multiline} w={w}>
        {cloneElement(children, { ref })}
      </MantineTooltip>
    );
  }
  const arm = () => {
    wanted.current = true;
    const make = (tooltip: TooltipComponent) => {
      hadFocus.current = trigger.current !== null && trigger.current === document.activeElement;
      setArmed({ Tooltip: tooltip, opened: wanted.current });
    };
    if (tooltipCode.value) make(tooltipCode.value);
    else tooltipCode.load().then(make, () => undefined);
  };
  const { onPointerEnter, onPointerLeave, onFocus, onBlur } = children.props;
  return cloneElement(children, {
    ref,
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      onPointerEnter?.(event);
      // As the Tooltip's own handling: a mouse (some Linux Chromium builds report it as a pen) or a touch.
      if (event.pointerType === 'touch' ? events.touch : events.hover) arm();
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      onPointerLeave?.(event);
      wanted.current = false;
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      onFocus?.(event);
      if (events.focus) arm();
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      onBlur?.(event);
      wanted.current = false;
    },
  });
}
