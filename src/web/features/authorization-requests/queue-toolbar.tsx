import { CloseButton, Group, SegmentedControl, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconArrowsSort, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { RequestView } from '../../api/queries.ts';
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
}

export function QueueToolbar({ view, q, sort, pendingCount, onSearchInput, onChange }: QueueToolbarProps) {
  const [text, setText] = useState(q ?? '');
  const pushSearch = useDebouncedCallback((value: string) => onChange({ q: value.trim() || undefined }), 250);
  // The URL is the source of truth: back/forward must update the box too.
  useEffect(() => setText(q ?? ''), [q]);

  return (
    <Group justify="space-between" gap="sm" mb="md" wrap="wrap">
      <SegmentedControl
        aria-label="Which requests"
        value={view}
        onChange={(value) => onChange({ view: value as RequestView })}
        data={[
          { value: 'pending', label: pendingCount === undefined ? 'Pending' : `Pending (${pendingCount})` },
          { value: 'all', label: 'All requests' },
        ]}
      />
      <Group gap="sm" wrap="wrap">
        <TextInput
          aria-label="Search requests"
          placeholder="Search user, device, OS…"
          leftSection={<IconSearch size={16} />}
          w={{ base: '100%', xs: 280 }}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            onSearchInput?.(event.currentTarget.value);
            pushSearch(event.currentTarget.value);
          }}
          rightSection={
            text ? (
              <CloseButton
                aria-label="Clear search"
                size="sm"
                onClick={() => {
                  setText('');
                  onChange({ q: undefined });
                }}
              />
            ) : null
          }
        />
        <Select
          aria-label="Sort by"
          leftSection={<IconArrowsSort size={16} />}
          w={170}
          allowDeselect={false}
          value={sort}
          onChange={(value) => value && onChange({ sort: value as RequestSort })}
          data={REQUEST_SORTS.map((value) => ({ value, label: SORT_LABELS[value] }))}
        />
      </Group>
    </Group>
  );
}
