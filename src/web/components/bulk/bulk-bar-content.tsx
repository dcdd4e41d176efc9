import { Button, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { TOUCH_TARGET, usePhone } from '../../lib/use-phone.ts';
import type { BulkBarProps } from './bulk-bar-props.ts';

/**
 * What to do with the selected rows. On a phone it stays under the header while the person scrolls through the
 * cards, with touch-sized buttons.
 */
export function BulkBarContent({ count, total, allSelected, onSelectAll, onClear, actions }: BulkBarProps) {
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
        {actions.map((action) => (
          <Button key={action.key} size="xs" variant={action.variant} color={action.color} onClick={action.onClick}>
            {action.label} {count}
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
      <SimpleGrid cols={actions.length} spacing="xs">
        {actions.map((action) => (
          <Button
            key={action.key}
            h={TOUCH_TARGET}
            px="xs"
            variant={action.variant}
            color={action.color}
            onClick={action.onClick}
          >
            {action.label} {count}
          </Button>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
