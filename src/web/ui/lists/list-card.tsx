import { Box, Checkbox, Group, Paper } from '@mantine/core';
import { useLongPress } from '@mantine/hooks';
import { type ReactNode, useRef } from 'react';

export interface ListCardProps {
  /** Select mode: a tap anywhere on the card selects or unselects it instead of following its links. */
  selecting: boolean;
  selected: boolean;
  /** The checkbox's accessible name, e.g. "Select request #12 from ACME\jo". */
  selectLabel: string | undefined;
  onToggle: () => void;
  /** A long press (touch) starts select mode with this card selected; absent when the list offers no selection. */
  onLongPress: (() => void) | undefined;
  children: ReactNode;
}

/** One row of a list in its phone rendering: a card, selectable by long press or in select mode. */
export function ListCard({ selecting, selected, selectLabel, onToggle, onLongPress, children }: ListCardProps) {
  // The tap that ends a long press must not also toggle the card (or follow a link in it).
  const swallowClick = useRef(false);
  const longPress = useLongPress(
    () => {
      swallowClick.current = true;
      onLongPress?.();
    },
    { events: ['touch'], cancelOnMove: true },
  );

  return (
    <Paper
      p="md"
      radius="md"
      shadow="xs"
      data-selected={selected ? 'true' : undefined}
      style={{
        // A long press selects the card; it should not select text or open the link's callout as well.
        userSelect: onLongPress ? 'none' : undefined,
        WebkitTouchCallout: onLongPress ? 'none' : undefined,
        borderColor: selected ? 'var(--mantine-primary-color-filled)' : undefined,
        boxShadow: selected ? '0 0 0 1px var(--mantine-primary-color-filled)' : undefined,
      }}
      {...(onLongPress ? longPress : {})}
      onPointerDownCapture={() => {
        // Some browsers send no click after a long press: the flag must not eat the next real tap.
        swallowClick.current = false;
      }}
      onContextMenu={(event) => {
        if (swallowClick.current) event.preventDefault();
      }}
      onClickCapture={(event) => {
        if (swallowClick.current) {
          swallowClick.current = false;
          event.preventDefault();
          event.stopPropagation();
          return;
        }
        if (!selecting) return;
        // The checkbox toggles through its own change event.
        if (event.target instanceof HTMLElement && event.target.closest('input[type="checkbox"]')) return;
        event.preventDefault();
        event.stopPropagation();
        onToggle();
      }}
    >
      {selecting ? (
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <Checkbox size="md" mt={2} aria-label={selectLabel} checked={selected} onChange={onToggle} />
          <Box flex={1} miw={0}>
            {children}
          </Box>
        </Group>
      ) : (
        children
      )}
    </Paper>
  );
}
