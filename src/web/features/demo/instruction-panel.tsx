import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconCalendarTime, IconCircleCheck, IconInfoCircle, IconSend } from '@tabler/icons-react';
import { describeError } from '../../api/core/describe-error.ts';
import { useSession } from '../../session/session-context.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { READABLE_TITLE } from '../../ui/text/readable-title.ts';
import { PAGES, pageOpensFor } from '../../wiring/pages.tsx';
import { useDemoInstruction } from './demo-mutations.ts';

/** Plays the signed-in person's own system creating something that needs their second factor. */
export function InstructionPanel() {
  const { session } = useSession();
  const mutation = useDemoInstruction();
  const canSetStatus = pageOpensFor(PAGES.pushUsers, session);
  const created = mutation.data;
  const kindText = created?.Scheduled ? 'Scheduled instruction' : 'Instruction';
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Created as {session?.userName}. Its token is pushed to your Active devices and shows up in the inbox.
      </Text>
      <Group gap="sm">
        <Button
          leftSection={<IconSend size={16} />}
          onClick={() => mutation.mutate(false)}
          loading={mutation.isPending && mutation.variables === false}
        >
          Create an instruction
        </Button>
        <Button
          variant="light"
          leftSection={<IconCalendarTime size={16} />}
          onClick={() => mutation.mutate(true)}
          loading={mutation.isPending && mutation.variables === true}
        >
          Create a scheduled instruction
        </Button>
      </Group>
      {mutation.isError && (
        <Alert color="red" icon={<IconInfoCircle />} title={describeError(mutation.error).title} role="alert">
          {describeError(mutation.error).message}
        </Alert>
      )}
      {created &&
        (created.DeliveredTo > 0 ? (
          <Alert
            color="green"
            icon={<IconCircleCheck />}
            title={`${kindText} #${created.Id} created`}
            role="status"
            styles={READABLE_TITLE}
          >
            Its token went to {created.DeliveredTo} {created.DeliveredTo === 1 ? 'device' : 'devices'}: see the inbox.
          </Alert>
        ) : (
          <Alert
            color="orange"
            icon={<IconInfoCircle />}
            title={`${kindText} #${created.Id} created, no token sent`}
            role="status"
            styles={READABLE_TITLE}
          >
            You have no Active push device, so nothing could be delivered.{' '}
            {canSetStatus ? (
              <>
                Set one of yours to Active under{' '}
                <RouterAnchor to="/push-users" size="sm">
                  Push users
                </RouterAnchor>
                ,
              </>
            ) : (
              'Ask someone with Security Write to set one of yours to Active,'
            )}{' '}
            then issue a new token from the inbox or create another instruction.
          </Alert>
        ))}
    </Stack>
  );
}
