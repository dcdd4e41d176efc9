import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { PageHeader } from '../../ui/page-header.tsx';
import { BACK_LINK_PROPS, TextPlaceholder } from '../../ui/text/text-placeholder.tsx';

/** The back link's content, the same on the page and in its outline. */
export const BACK_TO_PUSH_USERS = (
  <Group gap={4}>
    <IconArrowLeft size={14} /> Push users
  </Group>
);

/** What the statuses mean: the page says it above the status switcher, whichever push user it shows. */
export function StatusExplanation() {
  return (
    <>
      <Text fw={600}>Status</Text>
      <Text size="sm" c="dimmed">
        Active devices receive push messages. Disabled devices keep their registration but receive nothing. Deleted
        registrations stay listed and can be reactivated.
      </Text>
    </>
  );
}

/**
 * A push user's page before its code and data have arrived: what does not depend on the push user, laid out as the
 * page lays it out. index.html shows it while the app downloads (scripts/page-outlines.ts renders it at build time,
 * with no router, hence the plain link).
 */
export function PushUserOutline() {
  return (
    <>
      <PageHeader
        above={
          <Anchor href="/push-users" {...BACK_LINK_PROPS}>
            {BACK_TO_PUSH_USERS}
          </Anchor>
        }
        title={<TextPlaceholder width={220} />}
        description={<TextPlaceholder width={260} />}
      />
      <Stack gap="md">
        <Paper p="lg" radius="md" shadow="xs">
          <Stack gap="sm">
            <StatusExplanation />
          </Stack>
        </Paper>
      </Stack>
    </>
  );
}
