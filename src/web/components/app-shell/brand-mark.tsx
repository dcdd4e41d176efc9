import { Box, Group, Text, ThemeIcon } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';

export function BrandMark({ size = 'md', compact = false }: { size?: 'md' | 'lg'; compact?: boolean }) {
  const large = size === 'lg';
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon size={large ? 44 : 32} radius="md" variant="filled" aria-hidden>
        <IconShieldCheck size={large ? 26 : 20} />
      </ThemeIcon>
      <Box visibleFrom={compact ? 'sm' : undefined}>
        <Text fw={700} fz={large ? 'lg' : 'sm'} lh={1.2}>
          Tachyon Consumer
        </Text>
        <Text fz="xs" c="dimmed" lh={1.2}>
          Device trust &amp; push users
        </Text>
      </Box>
    </Group>
  );
}
