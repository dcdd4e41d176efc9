import { Group, Stack, Text } from '@mantine/core';
import type { Person, SentCode, SentCodeOutcome } from '../../../shared/contract/index.ts';
import { AskedFrom, instructionText, ReportHandling } from '../../entities/request/code-report.tsx';
import { StatusBadge } from '../../ui/status-badge.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';
import classes from './person.module.css';
import { PersonSection } from './person-section.tsx';

const OUTCOME: Record<SentCodeOutcome, { label: string; color: string }> = {
  Waiting: { label: 'Not used yet', color: 'blue' },
  Used: { label: 'Used', color: 'green' },
  Expired: { label: 'Expired unused', color: 'gray' },
  Replaced: { label: 'Replaced by a newer code', color: 'gray' },
  Reported: { label: '“This wasn’t me”', color: 'red' },
  Ended: { label: 'Ended by a report', color: 'orange' },
};

function CodeItem({ code }: { code: SentCode }) {
  const outcome = OUTCOME[code.Outcome];
  const name = code.InstructionName || 'Unnamed instruction';
  return (
    <li className={classes.item} data-code-id={code.Id}>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={2} miw={0}>
          <Text size="sm" fw={600}>
            <UserText>{name}</UserText>
            <Text span size="xs" c="dimmed" fw={400}>
              {' '}
              ({instructionText(code)})
            </Text>
          </Text>
          <Text size="xs" c="dimmed">
            Sent <Timestamp value={code.SentTimestampUtc} size="xs" /> to {code.DevicesNotified} device
            {code.DevicesNotified === 1 ? '' : 's'} · asked{' '}
            <AskedFrom clientAddress={code.ClientAddress} userAgent={code.UserAgent} />
          </Text>
          {code.Outcome === 'Reported' && (
            <Text size="xs" c="dimmed">
              Reported <Timestamp value={code.ReportedTimestampUtc} size="xs" />
              {code.HandledBy === null && ' · not handled yet'}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <StatusBadge color={outcome.color}>{outcome.label}</StatusBadge>
          {code.Outcome === 'Reported' && <ReportHandling report={code} what={`the report of “${name}”`} />}
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
