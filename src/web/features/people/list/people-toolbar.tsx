import { Group, NativeSelect } from '@mantine/core';
import { IconArrowsSort } from '@tabler/icons-react';
import { memo, useMemo } from 'react';
import { ListSearchInput } from '../../../ui/lists/list-search-input.tsx';
import { ViewChips } from '../../../ui/lists/view-chips.tsx';
import {
  PEOPLE_SORTS,
  PEOPLE_VIEWS,
  type PeopleSort,
  type PeopleView,
  type PersonRow,
  viewKeeper,
} from './people-search.ts';

const VIEW_LABELS: Record<PeopleView, string> = {
  all: 'Everyone',
  reported: 'Open reports',
  pending: 'Pending requests',
  'no-device': 'No active device',
};

const SORT_LABELS: Record<PeopleSort, string> = {
  name: 'Name',
  devices: 'Most devices',
  pending: 'Most pending',
  'sign-in': 'Latest sign-in',
  reports: 'Most reports',
};

export interface PeopleToolbarProps {
  view: PeopleView;
  q: string | undefined;
  sort: PeopleSort;
  /** Undefined while there is no list (the server never reached): the views then show no counts, not "(0)". */
  people: readonly PersonRow[] | undefined;
  /** Every keystroke, before the debounced URL update: the list filters as the person types. */
  onSearchInput?: (value: string) => void;
  onChange: (change: { view?: PeopleView; q?: string | undefined; sort?: PeopleSort }) => void;
}

/** Memoized: the page renders again on each keystroke (the deferred search), the toolbar need not. */
export const PeopleToolbar = memo(function PeopleToolbar({
  view,
  q,
  sort,
  people,
  onSearchInput,
  onChange,
}: PeopleToolbarProps) {
  const counts = useMemo(
    () =>
      Object.fromEntries(
        PEOPLE_VIEWS.map((name) => {
          const keep = viewKeeper(name);
          return [name, people === undefined ? undefined : keep ? people.filter(keep).length : people.length];
        }),
      ) as Record<PeopleView, number | undefined>,
    [people],
  );
  return (
    <Group justify="space-between" gap="sm" mb="md" wrap="wrap">
      <ViewChips
        label="Which people"
        name="people-view"
        value={view}
        onChange={(next) => onChange({ view: next })}
        options={PEOPLE_VIEWS.map((value) => ({
          value,
          label: counts[value] === undefined ? VIEW_LABELS[value] : `${VIEW_LABELS[value]} (${counts[value]})`,
        }))}
      />
      <Group gap="sm" wrap="wrap" w={{ base: '100%', xs: 'auto' }}>
        <ListSearchInput
          label="Search people"
          placeholder="Search user name…"
          q={q}
          onSearchInput={onSearchInput}
          onQueryChange={(value) => onChange({ q: value })}
        />
        {/* The browser's own list, as the queue's: no Combobox mounted before the first rows. */}
        <NativeSelect
          aria-label="Sort by"
          leftSection={<IconArrowsSort size={16} />}
          w={{ base: '100%', xs: 170 }}
          value={sort}
          onChange={(event) => onChange({ sort: event.currentTarget.value as PeopleSort })}
          data={PEOPLE_SORTS.map((value) => ({ value, label: SORT_LABELS[value] }))}
        />
      </Group>
    </Group>
  );
});
