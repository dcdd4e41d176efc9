import { Box, Container, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef } from 'react';

/** The device app's frame: a slim header and one column, sized for a phone held in one hand. */
export function DeviceShell({ children }: { children: ReactNode }) {
  return (
    <Box mih="100dvh" bg="var(--app-main-bg)">
      <Box
        component="header"
        px="md"
        py="sm"
        bg="var(--mantine-color-body)"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group gap={10} wrap="nowrap">
          <ThemeIcon size={32} radius="md" variant="filled" aria-hidden>
            <IconShieldCheck size={20} />
          </ThemeIcon>
          <Text fw={700} fz="md">
            Tachyon device
          </Text>
        </Group>
      </Box>
      <Container component="main" size={520} px="md" py="lg">
        {children}
      </Container>
    </Box>
  );
}

/** The page has shown its first screen: from then on a new screen may take focus (see ScreenTitle). */
let firstScreenShown = false;

/**
 * A screen's heading. When a screen replaces another and focus went with the old one (it was on a button that is
 * gone, or nowhere), focus moves here, so keyboard and screen-reader users start at the new screen's top; a screen
 * changing under the person (an approval arriving) leaves focus where it still is. The first screen of a page load
 * leaves focus where a loaded page has it.
 */
export function ScreenTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!firstScreenShown) {
      firstScreenShown = true;
      return;
    }
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) ref.current?.focus();
  }, []);
  return (
    <Title order={1} fz={26} mb="sm" ref={ref} tabIndex={-1} style={{ outline: 'none' }}>
      {children}
    </Title>
  );
}
