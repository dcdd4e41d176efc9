import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';

export function BrandMark({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const large = size === 'lg';
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon size={large ? 44 : 32} radius="md" variant="filled" aria-hidden>
        <IconShieldCheck size={large ? 26 : 20} />
      </ThemeIcon>
      <div>
        <Text fw={700} fz={large ? 'lg' : 'sm'} lh={1.2}>
          Tachyon Consumer
        </Text>
        <Text fz="xs" c="dimmed" lh={1.2}>
          Device trust &amp; push users
        </Text>
      </div>
    </Group>
  );
}
