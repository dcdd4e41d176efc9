import { Badge, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { IconKey, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { DemoPush } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { DEMO_INBOX_POLL_MS, demoQueries } from '../../api/queries/queries.ts';
import { notify } from '../../lib/notify.ts';
import { InlineError } from '../../ui/inline-error.tsx';
import { RouterButton } from '../../ui/router-links.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { useDemoReissueToken } from './demo-mutations.ts';

/** What the person's phone would show: the pushes delivered to their devices, newest first, polled. */
export function DeviceInbox() {
  const query = useQuery(demoQueries.pushes());
  if (query.isPending) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Opening the inbox…
        </Text>
      </Group>
    );
  }
  if (query.isError) {
    return <InlineError error={query.error} onRetry={() => void query.refetch()} />;
  }
  return (
    <Stack gap="sm">
      <Text size="xs" c="dimmed" aria-live="polite">
        Checks for new pushes every {DEMO_INBOX_POLL_MS / 1000} seconds.{' '}
        {query.isFetching ? 'Checking…' : `${query.data.length} ${query.data.length === 1 ? 'push' : 'pushes'}.`}
      </Text>
      {query.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing yet. Create an instruction and its token arrives here.
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Pushes received">
          {query.data.map((push, index) => (
            <PushCard key={push.Id} push={push} newest={index === 0} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function PushCard({ push, newest }: { push: DemoPush; newest: boolean }) {
  const reissue = useDemoReissueToken();
  const kind = push.Scheduled ? 'scheduled' : 'instruction';
  const what = `${push.Scheduled ? 'Scheduled instruction' : 'Instruction'} #${push.InstructionId}`;
  return (
    <Card component="li" withBorder radius="md" padding="sm" data-testid="demo-push" aria-label={`Token for ${what}`}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Group gap={6}>
            <Text size="sm" fw={600}>
              {what}
            </Text>
            {newest && (
              <Badge size="xs" variant="light">
                newest
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            To your {push.DeviceType} device (push user #{push.PushMessageUserId}) ·{' '}
            <Timestamp value={push.SentTimestampUtc} size="xs" />
          </Text>
          <Text ff="monospace" fz={24} fw={700} style={{ letterSpacing: '0.3em' }} data-testid="demo-token">
            {push.Token}
          </Text>
        </Stack>
        <Group gap="xs">
          <RouterButton
            to="/two-factor"
            search={{ kind, id: push.InstructionId }}
            size="xs"
            leftSection={<IconKey size={14} />}
          >
            Enter this token
          </RouterButton>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            loading={reissue.isPending}
            onClick={() =>
              reissue.mutate(push.InstructionId, {
                onSuccess: () =>
                  notify({ title: 'New token sent', message: `A new token for ${what} is in the inbox.` }),
                onError: (error) =>
                  notify({
                    color: 'red',
                    title: describeError(error).title,
                    message: describeError(error).message,
                  }),
              })
            }
          >
            Issue a new token
          </Button>
        </Group>
      </Group>
    </Card>
  );
}
