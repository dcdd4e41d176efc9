import { Tooltip } from '@mantine/core';
import {
  cloneElement,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

/** What the trigger must accept: a ref to its element and a pointer-enter handler. */
interface TriggerProps {
  ref?: Ref<HTMLElement>;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
}

export interface HoverTooltipProps {
  label: ReactNode;
  /** One element that takes a ref (a Mantine component, a button). */
  children: ReactElement<TriggerProps>;
}

/**
 * A Mantine Tooltip with its default events (the mouse only: it opens on hover, not on focus or touch), made when
 * the mouse first comes over the trigger. A Tooltip costs Floating UI's hooks in the render of every page that shows
 * one; the header and toolbar tooltips would otherwise be built with a signed-in page's first render, for a hover
 * that may never come.
 */
export function HoverTooltip({ label, children }: HoverTooltipProps) {
  const [armed, setArmed] = useState(false);
  const trigger = useRef<HTMLElement>(null);
  // Wrapping the trigger in the Tooltip mounts it anew: keep the focus on it if it had it (a keyboard user who
  // then moves the mouse over it).
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
    return (
      // Open from the start: the mouse is over the trigger already.
      <Tooltip label={label} defaultOpened>
        {cloneElement(children, { ref })}
      </Tooltip>
    );
  }
  return cloneElement(children, {
    ref,
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      children.props.onPointerEnter?.(event);
      // As the Tooltip's own hover handling: a mouse (some Linux Chromium builds report it as a pen), never touch.
      if (event.pointerType === 'touch') return;
      hadFocus.current = event.currentTarget === document.activeElement;
      setArmed(true);
    },
  });
}
