import { type MantineColorScheme, SegmentedControl, Stack, Text, useMantineColorScheme } from '@mantine/core';

export function ThemeChoice() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id="theme-label">
        Theme
      </Text>
      <SegmentedControl
        aria-labelledby="theme-label"
        value={colorScheme}
        onChange={(value) => setColorScheme(value as MantineColorScheme)}
        data={[
          { value: 'light', label: 'Light' },
          { value: 'dark', label: 'Dark' },
          { value: 'auto', label: 'Match system' },
        ]}
        w="fit-content"
      />
      <Text size="xs" c="dimmed">
        Applies at once and is remembered in this browser.
      </Text>
    </Stack>
  );
}
