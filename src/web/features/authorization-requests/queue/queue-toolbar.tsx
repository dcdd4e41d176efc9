import { Group, NativeSelect } from '@mantine/core';
import { IconArrowsSort } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import type { RequestView } from '../../../api/queries/queries.ts';
import { ListSearchInput } from '../../../ui/lists/list-search-input.tsx';
import { ViewChips } from '../../../ui/lists/view-chips.tsx';
import { REQUEST_SORTS, type RequestSort } from './queue-search.ts';

const SORT_LABELS: Record<RequestSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  user: 'User name',
  device: 'Device',
};

export interface QueueToolbarProps {
  view: RequestView;
  q: string | undefined;
  sort: RequestSort;
  pendingCount: number | undefined;
  /** Every keystroke, before the debounced URL update: the list filters as the person types. */
  onSearchInput?: (value: string) => void;
  onChange: (change: { view?: RequestView; q?: string | undefined; sort?: RequestSort }) => void;
  /** The list's Export CSV button (of the rows on screen). */
  exportButton?: ReactNode;
}

/** Memoized: the page renders again on each keystroke (the deferred search), the toolbar need not. */
export const QueueToolbar = memo(function QueueToolbar({
  view,
  q,
  sort,
  pendingCount,
  onSearchInput,
  onChange,
  exportButton,
}: QueueToolbarProps) {
  return (
    <Group justify="space-between" gap="sm" mb="md" wrap="wrap">
      <ViewChips
        label="Which requests"
        name="request-view"
        value={view}
        onChange={(next) => onChange({ view: next })}
        options={[
          { value: 'pending', label: pendingCount === undefined ? 'Pending' : `Pending (${pendingCount})` },
          { value: 'all', label: 'All requests' },
        ]}
      />
      <Group gap="sm" wrap="wrap" w={{ base: '100%', xs: 'auto' }}>
        <ListSearchInput
          label="Search requests"
          placeholder="Search user, device, OS…"
          q={q}
          onSearchInput={onSearchInput}
          onQueryChange={(value) => onChange({ q: value })}
        />
        {/* The browser's own list: a Select's Combobox keeps its dropdown mounted and positioned while closed, work
            the queue's cold load would pay before its first rows. */}
        <NativeSelect
          aria-label="Sort by"
          leftSection={<IconArrowsSort size={16} />}
          w={{ base: '100%', xs: 170 }}
          value={sort}
          onChange={(event) => onChange({ sort: event.currentTarget.value as RequestSort })}
          data={REQUEST_SORTS.map((value) => ({ value, label: SORT_LABELS[value] }))}
        />
        {exportButton}
      </Group>
    </Group>
  );
});
