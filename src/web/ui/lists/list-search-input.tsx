import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

export interface ListSearchInputProps {
  label: string;
  placeholder: string;
  /** The search held in the URL: the source of truth, so back/forward update the box too. */
  q: string | undefined;
  /** Every keystroke, before the debounced URL update: the list filters as the person types. */
  onSearchInput?: ((value: string) => void) | undefined;
  /** The URL update, debounced so history is not flooded. */
  onQueryChange: (q: string | undefined) => void;
}

/** The lists' search box: filters as the person types, keeps the URL in step, and clears in one click. */
export function ListSearchInput({ label, placeholder, q, onSearchInput, onQueryChange }: ListSearchInputProps) {
  const [text, setText] = useState(q ?? '');
  const pushSearch = useDebouncedCallback((value: string) => onQueryChange(value.trim() || undefined), 250);
  useEffect(() => setText(q ?? ''), [q]);

  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
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
              // A URL update still pending from typing would otherwise bring the cleared text back.
              pushSearch.cancel();
              setText('');
              onSearchInput?.('');
              onQueryChange(undefined);
            }}
          />
        ) : null
      }
    />
  );
}
