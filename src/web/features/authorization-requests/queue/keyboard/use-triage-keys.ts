import { useEffect, useRef } from 'react';
import type { AuthorizationRequest } from '../../../../../shared/contract/index.ts';
import type { VirtualTableHandle } from '../../../../ui/lists/virtual/use-window-list.ts';

export interface TriageActions {
  decide: (request: AuthorizationRequest, decision: 'approve' | 'reject') => void;
  open: (request: AuthorizationRequest) => void;
  showHelp: () => void;
}

/** True when a key press belongs to whatever has focus: typing in a field, a menu, or an open dialog. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest('input, textarea, select, [role="dialog"], [role="menu"], [role="listbox"]')) return true;
  return false;
}

/** Focuses a row's link; the row is scrolled into the virtual window first when needed. */
function focusRow(id: number, index: number, table: VirtualTableHandle | null) {
  const find = () => document.querySelector<HTMLElement>(`[data-request-focus="${id}"]`);
  const element = find();
  if (element) {
    element.focus();
    element.scrollIntoView({ block: 'nearest' });
    return;
  }
  table?.scrollToIndex(index);
  let tries = 0;
  const retry = () => {
    const found = find();
    if (found) found.focus();
    else if (++tries < 10) requestAnimationFrame(retry);
  };
  requestAnimationFrame(retry);
}

/**
 * Keyboard-first triage: j/k move between requests, a approves, r rejects, o opens the detail, ? shows the keys.
 * The current request is the one whose row holds focus (the first one when none does).
 */
export function useTriageKeys(
  rows: readonly AuthorizationRequest[],
  table: React.RefObject<VirtualTableHandle | null>,
  actions: TriageActions,
) {
  const latest = useRef({ rows, actions });
  latest.current = { rows, actions };

  useEffect(() => {
    function currentIndex(): number {
      const row = document.activeElement?.closest<HTMLElement>('[data-request-id]');
      if (!row) return -1;
      const id = Number(row.dataset.requestId);
      return latest.current.rows.findIndex((request) => request.Id === id);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) return;
      const { rows: list, actions: act } = latest.current;
      if (event.key === '?') {
        event.preventDefault();
        act.showHelp();
        return;
      }
      if (!['j', 'k', 'a', 'r', 'o'].includes(event.key) || list.length === 0) return;
      event.preventDefault();
      const index = currentIndex();
      if (event.key === 'j' || event.key === 'k') {
        const next = index < 0 ? 0 : Math.min(Math.max(index + (event.key === 'j' ? 1 : -1), 0), list.length - 1);
        const request = list[next];
        if (request) focusRow(request.Id, next, table.current);
        return;
      }
      const request = list[index < 0 ? 0 : index];
      if (!request) return;
      if (event.key === 'o') act.open(request);
      else act.decide(request, event.key === 'a' ? 'approve' : 'reject');
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [table]);
}
