import { Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDeviceMobile } from '@tabler/icons-react';
import { UserText } from '../../components/user-text.tsx';

export interface DeviceSummaryProps {
  deviceType: string;
  manufacturer: string;
  model: string;
  osVersion: string;
}

export function DeviceSummary({ deviceType, manufacturer, model, osVersion }: DeviceSummaryProps) {
  return (
    <Group gap="sm" wrap="nowrap">
      <ThemeIcon variant="light" color="gray" size="md" radius="md" aria-hidden>
        <IconDeviceMobile size={16} />
      </ThemeIcon>
      <Stack gap={0}>
        <Text size="sm" fw={500}>
          <UserText>{manufacturer}</UserText> <UserText>{model}</UserText>
        </Text>
        <Text size="xs" c="dimmed">
          <UserText>{deviceType}</UserText> · <UserText>{osVersion}</UserText>
        </Text>
      </Stack>
    </Group>
  );
}
