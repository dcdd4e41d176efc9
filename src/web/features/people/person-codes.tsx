import { Button, Group, Stack, Text } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import { endpoints, type Person, type SentCode, type SentCodeOutcome } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/describe-error.ts';
import { useMarkReportHandled } from '../../api/people-queries.ts';
import { Permitted } from '../../components/permission-button.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { Timestamp } from '../../components/timestamp.tsx';
import { UserText } from '../../components/user-text.tsx';
import { notify } from '../../lib/notify.ts';
import classes from './person.module.css';
import { PersonSection } from './person-section.tsx';

const OUTCOME: Record<SentCodeOutcome, { label: string; color: string }> = {
  Waiting: { label: 'Not used yet', color: 'blue' },
  Used: { label: 'Used', color: 'green' },
  Expired: { label: 'Expired unused', color: 'gray' },
  Replaced: { label: 'Replaced by a newer code', color: 'gray' },
  Reported: { label: '“This wasn’t me”', color: 'red' },
};

function MarkHandled({ code }: { code: SentCode }) {
  const mark = useMarkReportHandled();
  return (
    <Permitted endpoint={endpoints.markReportHandled}>
      {(refused) => (
        <Button
          size="xs"
          variant="default"
          leftSection={<IconChecks size={14} />}
          loading={mark.isPending}
          aria-label={`Mark the report of "${code.InstructionName || 'unnamed instruction'}" handled`}
          onClick={() =>
            mark.mutate(code.Id, {
              onSuccess: (handled) =>
                notify({ color: 'green', title: 'Report handled', message: `Marked handled by ${handled.HandledBy}.` }),
              onError: (error) => {
                const { title, message } = describeError(error);
                notify({ color: 'red', title: `Could not mark it handled: ${title}`, message });
              },
            })
          }
          {...refused}
        >
          Mark handled
        </Button>
      )}
    </Permitted>
  );
}

function CodeItem({ code }: { code: SentCode }) {
  const outcome = OUTCOME[code.Outcome];
  return (
    <li className={classes.item} data-code-id={code.Id}>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={2} miw={0}>
          <Text size="sm" fw={600}>
            <UserText>{code.InstructionName || 'Unnamed instruction'}</UserText>
            <Text span size="xs" c="dimmed" fw={400}>
              {' '}
              ({code.Scheduled ? 'scheduled instruction' : 'instruction'} #{code.InstructionId})
            </Text>
          </Text>
          <Text size="xs" c="dimmed">
            Sent <Timestamp value={code.SentTimestampUtc} size="xs" /> to {code.DevicesNotified} device
            {code.DevicesNotified === 1 ? '' : 's'} · asked from {code.ClientAddress ?? 'an unknown address'}
          </Text>
          {code.UserAgent && (
            <Text size="xs" c="dimmed">
              <UserText>{code.UserAgent}</UserText>
            </Text>
          )}
          {code.Outcome === 'Reported' && (
            <Text size="xs" c="dimmed">
              Reported <Timestamp value={code.ReportedTimestampUtc} size="xs" />
              {code.HandledBy ? (
                <>
                  {' '}
                  · handled by <UserText>{code.HandledBy}</UserText>{' '}
                  <Timestamp value={code.HandledTimestampUtc} size="xs" />
                </>
              ) : (
                ' · not handled yet'
              )}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <StatusBadge color={outcome.color}>{outcome.label}</StatusBadge>
          {code.Outcome === 'Reported' && code.HandledBy === null && <MarkHandled code={code} />}
        </Group>
      </Group>
    </li>
  );
}

/** The latest codes sent to the person: what asked, when, from where, and what became of each (never the code). */
export function PersonCodes({ person }: { person: Person }) {
  return (
    <PersonSection title="Codes sent" count={person.Codes.length} id="codes">
      {person.Codes.length === 0 ? (
        <Text size="sm" c="dimmed">
          No two-factor code has been sent to them.
        </Text>
      ) : (
        <ul className={classes.list}>
          {person.Codes.map((code) => (
            <CodeItem key={code.Id} code={code} />
          ))}
        </ul>
      )}
    </PersonSection>
  );
}
