import { Chip, Group } from '@mantine/core';

export interface ViewChipsProps<V extends string> {
  /** The group's accessible name. */
  label: string;
  /** Shared by the radios: the arrow keys move between them. */
  name: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}

/**
 * Which rows a list shows, as one radio per choice. Chips rather than a SegmentedControl: its sliding indicator
 * measures the page's layout while a list's first render commits, which holds up the queue's first rows on a slow
 * machine. They wrap on a narrow screen instead of scrolling.
 */
export function ViewChips<V extends string>({ label, name, value, options, onChange }: ViewChipsProps<V>) {
  return (
    <Chip.Group value={value} onChange={(next) => onChange(next as V)}>
      <Group gap="xs" role="radiogroup" aria-label={label}>
        {options.map((option) => (
          <Chip key={option.value} value={option.value} name={name}>
            {option.label}
          </Chip>
        ))}
      </Group>
    </Chip.Group>
  );
}
