import { Button, CloseButton, Group, NativeSelect, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconFilterOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ACTIVITY_ACTION_LABELS } from '../../entities/activity/activity-labels.ts';
import { ListSearchInput } from '../../ui/lists/list-search-input.tsx';
import { type ActivitySearch, anyFilter } from './activity-search.ts';

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

const ACTION_OPTIONS = [
  { value: '', label: 'Every event' },
  ...Object.entries(ACTIVITY_ACTION_LABELS)
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label)),
];

/** The Activity page's filters, each held in the URL. */
export function ActivityToolbar({
  search,
  onChange,
  exportButton,
}: {
  search: ActivitySearch;
  onChange: (change: Change) => void;
  exportButton: React.ReactNode;
}) {
  return (
    <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
      <ListSearchInput
        label="Search events"
        placeholder="Search names, addresses, details…"
        q={search.q}
        onQueryChange={(q) => onChange({ q })}
      />
      <NativeSelect
        label="Event"
        w={{ base: '100%', xs: 230 }}
        value={search.action ?? ''}
        onChange={(event) => onChange({ action: event.currentTarget.value || undefined })}
        data={
          search.action && !(search.action in ACTIVITY_ACTION_LABELS)
            ? [...ACTION_OPTIONS, { value: search.action, label: search.action }]
            : ACTION_OPTIONS
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
        <Button variant="subtle" size="xs" onClick={() => onChange(CLEARED)}>
          Clear filters
        </Button>
      )}
      {exportButton}
    </Group>
  );
}

const CLEARED: Change = {
  actor: undefined,
  person: undefined,
  target: undefined,
  action: undefined,
  outcome: undefined,
  from: undefined,
  to: undefined,
  q: undefined,
};
