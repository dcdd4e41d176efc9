import { Button, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { TOUCH_TARGET, usePhone } from '../../../lib/use-phone.ts';
import type { BulkAction, BulkBarProps } from './bulk-bar-props.ts';

/** "Disable 3", or "Disable 2 of 3" when the others already are. */
export function actionText(action: BulkAction, count: number): string {
  const changes = action.changes ?? count;
  return changes < count ? `${action.label} ${changes} of ${count}` : `${action.label} ${count}`;
}

function NothingToDo({ text }: { text: string }) {
  return (
    <Text size="sm" c="dimmed">
      {text}
    </Text>
  );
}

/**
 * What to do with the selected rows. On a phone it stays under the header while the person scrolls through the
 * cards, with touch-sized buttons.
 */
export function BulkBarContent({
  count,
  total,
  allSelected,
  onSelectAll,
  onClear,
  actions,
  nothingToDo,
}: BulkBarProps) {
  const phone = usePhone();
  const status = (
    <Text size="sm" fw={600} role="status" style={{ whiteSpace: 'nowrap' }}>
      {count} selected
    </Text>
  );
  const selectAll = !allSelected && (
    <Button
      size={phone ? 'sm' : 'xs'}
      h={phone ? 44 : undefined}
      px={phone ? 'xs' : undefined}
      variant="subtle"
      onClick={onSelectAll}
    >
      Select all {total} matching
    </Button>
  );
  if (!phone) {
    return (
      <Group gap="sm" mb="sm" p="xs" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 8 }}>
        {status}
        {selectAll}
        {actions.length === 0 && nothingToDo && <NothingToDo text={nothingToDo} />}
        {actions.map((action) => (
          <Button key={action.key} size="xs" variant={action.variant} color={action.color} onClick={action.onClick}>
            {actionText(action, count)}
          </Button>
        ))}
        <Button size="xs" variant="default" onClick={onClear}>
          Clear selection
        </Button>
      </Group>
    );
  }
  return (
    <Paper
      p="sm"
      mb="sm"
      shadow="md"
      style={{ position: 'sticky', top: 'calc(var(--app-shell-header-offset, 60px) + 8px)', zIndex: 3 }}
    >
      <Group gap="xs" mb="xs" wrap="nowrap">
        {status}
        <Group gap={0} ml="auto" wrap="nowrap">
          {selectAll}
          <Button size="sm" h={44} px="xs" variant="subtle" color="gray" onClick={onClear} aria-label="Clear selection">
            Clear
          </Button>
        </Group>
      </Group>
      {actions.length === 0 && nothingToDo && <NothingToDo text={nothingToDo} />}
      <SimpleGrid cols={Math.max(1, actions.length)} spacing="xs">
        {actions.map((action) => (
          <Button
            key={action.key}
            h={TOUCH_TARGET}
            px="xs"
            variant={action.variant}
            color={action.color}
            onClick={action.onClick}
          >
            {actionText(action, count)}
          </Button>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
