import { Container, Divider, Group, Paper, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useSession } from '../../session/session-context.tsx';
import { AppLayout } from '../../shell/app-layout.tsx';
import { BrandMark } from '../../ui/brand-mark.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import { AlertDestinations } from './alert-destinations.tsx';
import { ConnectionForm } from './connection-form.tsx';
import { ThemeChoice } from './theme-choice.tsx';

function SettingsContent({ signedIn }: { signedIn: boolean }) {
  return (
    <>
      <PageHeader title={PAGES.settings.label} description={PAGES.settings.description} />
      <Stack gap="lg" maw={720}>
        <Paper p="lg" radius="md" shadow="xs">
          <Title order={2} fz="md" mb="md">
            Connection
          </Title>
          <ConnectionForm />
        </Paper>
        <Paper p="lg" radius="md" shadow="xs">
          <Title order={2} fz="md" mb="md">
            Appearance
          </Title>
          <ThemeChoice />
        </Paper>
        {signedIn ? <AlertDestinations /> : null}
      </Stack>
    </>
  );
}

/** Reachable before signing in too: the server address must be settable before there is a session. */
export function SettingsPage() {
  const { session } = useSession();
  if (session) {
    return (
      <AppLayout>
        <SettingsContent signedIn />
      </AppLayout>
    );
  }
  return (
    <Container size="sm" py="xl" component="main">
      <Group justify="space-between" mb="lg">
        <BrandMark />
        <RouterAnchor to="/login" size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} /> Back to sign in
          </Group>
        </RouterAnchor>
      </Group>
      <Divider mb="lg" />
      <SettingsContent signedIn={false} />
    </Container>
  );
}
