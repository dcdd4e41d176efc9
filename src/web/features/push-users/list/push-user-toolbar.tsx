import { Group } from '@mantine/core';
import { memo, type ReactNode, useMemo } from 'react';
import type { PushMessageUser } from '../../../../shared/contract/index.ts';
import { FILTER_STATUS } from '../../../entities/push-user/push-user-status.ts';
import { ListSearchInput } from '../../../ui/lists/list-search-input.tsx';
import { ViewChips } from '../../../ui/lists/view-chips.tsx';
import type { StatusFilter } from './push-user-search.ts';

export interface PushUserToolbarProps {
  status: StatusFilter;
  q: string | undefined;
  /** Undefined while there is no list (loading, or never reached): the filters then show no counts. */
  users: readonly PushMessageUser[] | undefined;
  /** Every keystroke, before the debounced URL update: the list filters as the person types. */
  onSearchInput?: (value: string) => void;
  onChange: (change: { status?: StatusFilter; q?: string | undefined }) => void;
  /** The list's Export CSV button (of the rows on screen). */
  exportButton?: ReactNode;
}

const LABELS: Record<StatusFilter, string> = { all: 'All', active: 'Active', disabled: 'Disabled', deleted: 'Deleted' };

/** Memoized: the page renders again on each keystroke (the deferred search), the toolbar need not. */
export const PushUserToolbar = memo(function PushUserToolbar({
  status,
  q,
  users,
  onSearchInput,
  onChange,
  exportButton,
}: PushUserToolbarProps) {
  const counts = useMemo(() => {
    const byStatus = new Map<number, number>();
    for (const user of users ?? []) byStatus.set(user.Status, (byStatus.get(user.Status) ?? 0) + 1);
    return byStatus;
  }, [users]);
  const count = (filter: StatusFilter) =>
    filter === 'all' ? (users?.length ?? 0) : (counts.get(FILTER_STATUS[filter]) ?? 0);

  return (
    <Group justify="space-between" gap="sm" mb="md" wrap="wrap">
      <ViewChips
        label="Filter by status"
        name="push-user-status"
        value={status}
        onChange={(next) => onChange({ status: next })}
        options={(Object.keys(LABELS) as StatusFilter[]).map((value) => ({
          value,
          label: users === undefined ? LABELS[value] : `${LABELS[value]} (${count(value)})`,
        }))}
      />
      <Group gap="sm" wrap="wrap" w={{ base: '100%', xs: 'auto' }}>
        <ListSearchInput
          label="Search push users"
          placeholder="Search user or device…"
          q={q}
          onSearchInput={onSearchInput}
          onQueryChange={(value) => onChange({ q: value })}
        />
        {exportButton}
      </Group>
    </Group>
  );
});
