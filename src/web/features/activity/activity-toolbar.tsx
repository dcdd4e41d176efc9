import { Button, CloseButton, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconFilter, IconFilterOff } from '@tabler/icons-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { ACTIVITY_ACTION_LABELS, actionLabel } from '../../entities/activity/activity-labels.ts';
import { readableActions, useMayReadAccountEvents } from '../../entities/activity/activity-readers.ts';
import { TOUCH_TARGET, usePhone } from '../../lib/use-phone.ts';
import { ListSearchInput } from '../../ui/lists/list-search-input.tsx';
import { type ActivitySearch, anyFilter, NO_FILTERS } from './activity-search.ts';

type Change = Partial<ActivitySearch>;

/** A text filter kept in the URL, updated a moment after the person stops typing. */
function FilterInput({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const [text, setText] = useState(value ?? '');
  const push = useDebouncedCallback((next: string) => onChange(next.trim() || undefined), 400);
  useEffect(() => setText(value ?? ''), [value]);
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      w={{ base: '100%', xs: 200 }}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        push(event.currentTarget.value);
      }}
      rightSection={
        text ? (
          <CloseButton
            aria-label={`Clear ${label.toLowerCase()}`}
            size="sm"
            onClick={() => {
              setText('');
              onChange(undefined);
            }}
          />
        ) : null
      }
    />
  );
}

/** The events a reader may choose, by name: one they could never see would only ever match nothing. */
const actionOptions = (accountEvents: boolean) => [
  { value: '', label: 'Every event' },
  ...readableActions(accountEvents)
    .map((value) => ({ value, label: ACTIVITY_ACTION_LABELS[value] }))
    .sort((a, b) => a.label.localeCompare(b.label)),
];

/** The filters behind the phone's "Filters" button, counted on it when set (the target has a button of its own). */
const FIELD_FILTERS = ['action', 'outcome', 'actor', 'person', 'from', 'to'] as const;

/**
 * The Activity page's filters, each held in the URL. On a phone the search and the events come first: the other six
 * filled its whole first screen, so they open on "Filters", which says how many are set.
 */
export function ActivityToolbar({
  search,
  onChange,
  exportButton,
}: {
  search: ActivitySearch;
  onChange: (change: Change) => void;
  exportButton: ReactNode;
}) {
  const phone = usePhone();
  const [open, setOpen] = useState(false);
  const panel = useId();
  const searchInput = (
    <ListSearchInput
      label="Search events"
      placeholder="Search names, addresses, details…"
      q={search.q}
      onQueryChange={(q) => onChange({ q })}
    />
  );
  const fields = <FilterFields search={search} onChange={onChange} />;
  const resets = (
    <>
      {search.target && (
        <Button
          variant="light"
          size="xs"
          rightSection={<IconFilterOff size={14} />}
          onClick={() => onChange({ target: undefined })}
        >
          Only {search.target.replace(':', ' ')}: show all
        </Button>
      )}
      {anyFilter(search) && (
        <Button variant="subtle" size="xs" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </Button>
      )}
    </>
  );
  if (!phone) {
    return (
      <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
        {searchInput}
        {fields}
        {resets}
        {exportButton}
      </Group>
    );
  }
  const set = FIELD_FILTERS.filter((key) => search[key] !== undefined).length;
  return (
    <Stack gap="sm" mb="md">
      {searchInput}
      <Group gap="sm">
        <Button
          variant="default"
          h={TOUCH_TARGET}
          leftSection={<IconFilter size={16} />}
          aria-expanded={open}
          aria-controls={panel}
          onClick={() => setOpen((was) => !was)}
        >
          {set > 0 ? `Filters (${set})` : 'Filters'}
        </Button>
        {exportButton}
        {resets}
      </Group>
      {open && (
        <Stack id={panel} gap="sm">
          {fields}
        </Stack>
      )}
    </Stack>
  );
}

/** The filters besides the search: the event, its outcome, who acted, whom it concerns, and when. */
function FilterFields({ search, onChange }: { search: ActivitySearch; onChange: (change: Change) => void }) {
  const options = actionOptions(useMayReadAccountEvents());
  return (
    <>
      <NativeSelect
        label="Event"
        w={{ base: '100%', xs: 230 }}
        value={search.action ?? ''}
        onChange={(event) => onChange({ action: event.currentTarget.value || undefined })}
        data={
          // One from a link (a newer server's, or one this reader does not see) is shown as it is set.
          search.action && !options.some((option) => option.value === search.action)
            ? [...options, { value: search.action, label: actionLabel(search.action) }]
            : options
        }
      />
      <NativeSelect
        label="Outcome"
        w={{ base: '100%', xs: 140 }}
        value={search.outcome ?? ''}
        onChange={(event) =>
          onChange({ outcome: (event.currentTarget.value || undefined) as ActivitySearch['outcome'] })
        }
        data={[
          { value: '', label: 'Any outcome' },
          { value: 'success', label: 'Succeeded' },
          { value: 'failure', label: 'Failed' },
        ]}
      />
      <FilterInput label="By" placeholder="Who acted" value={search.actor} onChange={(actor) => onChange({ actor })} />
      <FilterInput
        label="Concerns"
        placeholder="Person"
        value={search.person}
        onChange={(person) => onChange({ person })}
      />
      <TextInput
        type="date"
        label="From (UTC)"
        w={{ base: '100%', xs: 160 }}
        value={search.from ?? ''}
        onChange={(event) => onChange({ from: event.currentTarget.value || undefined })}
      />
      <TextInput
        type="date"
        label="To (UTC)"
        w={{ base: '100%', xs: 160 }}
        value={search.to ?? ''}
        onChange={(event) => onChange({ to: event.currentTarget.value || undefined })}
      />
    </>
  );
}
