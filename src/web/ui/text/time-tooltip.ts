import { formatExact } from '../../lib/time/time-format.ts';
import classes from './timestamp.module.css';

/** What marks a time that shows its exact value on hover and focus (set by Timestamp). */
export const TIME_TIP_ATTRIBUTE = 'data-time-tip';

/**
 * One tooltip for every time on the page, driven by events on the document: a list shows a time on each row, and
 * a tooltip component per row would cost every row's render for a hover that may never come. It shows on pointer
 * hover and on keyboard focus, stays while the pointer moves onto it, and Escape, scrolling or leaving hides it.
 */
let tip: HTMLDivElement | null = null;
let current: HTMLElement | null = null;
let installed = false;

function tipElement(): HTMLDivElement {
  if (!tip?.isConnected) {
    tip = document.createElement('div');
    tip.className = classes.tooltip ?? '';
    tip.setAttribute('role', 'tooltip');
    tip.id = 'time-tooltip';
    tip.hidden = true;
    tip.addEventListener('pointerleave', (event) => {
      if (event.relatedTarget !== current) hide();
    });
    document.body.append(tip);
  }
  return tip;
}

function timeOf(target: EventTarget | null): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>(`[${TIME_TIP_ATTRIBUTE}]`) : null;
}

const GAP = 6;
const EDGE = 8;

function show(target: HTMLElement) {
  const at = Date.parse(target.getAttribute('datetime') ?? '');
  if (Number.isNaN(at)) return;
  const element = tipElement();
  current = target;
  element.textContent = formatExact(at);
  element.hidden = false;
  // Above the time where there is room, below otherwise; never past the window's sides.
  const anchor = target.getBoundingClientRect();
  const { width, height } = element.getBoundingClientRect();
  const top = anchor.top - height - GAP >= EDGE ? anchor.top - height - GAP : anchor.bottom + GAP;
  const centred = anchor.left + anchor.width / 2 - width / 2;
  const left = Math.max(EDGE, Math.min(centred, window.innerWidth - width - EDGE));
  element.style.top = `${Math.round(top)}px`;
  element.style.left = `${Math.round(left)}px`;
}

function hide() {
  current = null;
  if (tip) tip.hidden = true;
}

/** Listens on the document, once; called by each Timestamp as it renders (cheap after the first). */
export function installTimeTooltip(): void {
  if (installed || typeof document === 'undefined') return;
  installed = true;
  document.addEventListener('pointerover', (event) => {
    const target = timeOf(event.target);
    if (target && target !== current) show(target);
  });
  document.addEventListener('pointerout', (event) => {
    const target = timeOf(event.target);
    if (!target || target !== current || target.contains(event.relatedTarget as Node | null)) return;
    if (event.relatedTarget !== tip) hide();
  });
  document.addEventListener('focusin', (event) => {
    const target = timeOf(event.target);
    if (target) show(target);
    else if (current) hide();
  });
  document.addEventListener('focusout', (event) => {
    if (timeOf(event.target) === current) hide();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && current) hide();
  });
  // A fixed tooltip follows its time when something scrolls (a live list, the page bringing the time into view),
  // and goes when the time has left the window.
  document.addEventListener(
    'scroll',
    () => {
      if (!current) return;
      const { bottom, top } = current.getBoundingClientRect();
      if (!current.isConnected || bottom < 0 || top > window.innerHeight) hide();
      else show(current);
    },
    { capture: true, passive: true },
  );
}
