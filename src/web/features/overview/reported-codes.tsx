import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconUserExclamation } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReportedCode } from '../../../shared/contract/index.ts';
import { accountQueries } from '../../api/queries/account-queries.ts';
import { PersonLink, PersonPageLink } from '../../entities/person/person-links.tsx';
import { AskedFrom, instructionText, ReportHandling } from '../../entities/request/code-report.tsx';
import { InlineError } from '../../ui/inline-error.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';

/** The most recent reports the overview lists; the rest are in each account's activity. */
const SHOWN = 5;

/**
 * Codes people reported from their phones as not asked for by them: whoever asked knows that person's password,
 * so everyone who looks after people (Read on Security, the helpdesk) sees who, when, and from where.
 */
export function ReportedCodesSection() {
  const query = useQuery(accountQueries.reportedCodes());
  const open = query.data?.filter((report) => !report.HandledBy).length ?? 0;

  return (
    <section aria-labelledby="overview-reported-codes">
      <Group gap="xs" mb="sm">
        <Title order={2} fz="lg" id="overview-reported-codes">
          Reported codes
        </Title>
        {open > 0 && (
          <Badge color="red.9" variant="filled" tt="none">
            {open} open
          </Badge>
        )}
      </Group>
      {query.isError ? (
        <InlineError error={query.error} onRetry={() => void query.refetch()} about="Reported codes" />
      ) : query.isPending ? (
        <Text size="sm" c="dimmed" role="status">
          Loading reports…
        </Text>
      ) : query.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No one has reported a code they did not ask for.
        </Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} data-testid="reported-codes">
          {query.data.slice(0, SHOWN).map((report) => (
            <ReportRow key={report.Id} report={report} />
          ))}
          {query.data.length > SHOWN && (
            <Text component="li" size="xs" c="dimmed">
              {query.data.length - SHOWN} older {query.data.length - SHOWN === 1 ? 'report' : 'reports'}:{' '}
              <RouterAnchor to="/people" search={{ view: 'reported' }} size="xs">
                People with open reports
              </RouterAnchor>
            </Text>
          )}
        </Stack>
      )}
    </section>
  );
}

function ReportRow({ report }: { report: ReportedCode }) {
  return (
    <Paper component="li" p="sm" radius="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconUserExclamation size={20} color="var(--mantine-color-red-filled)" aria-hidden style={{ flexShrink: 0 }} />
        <div>
          <Text size="sm" fw={600}>
            <PersonLink userName={report.UserName} /> reported a code they did not ask for
          </Text>
          <Text size="xs" c="dimmed">
            Reported <Timestamp value={report.ReportedTimestampUtc} size="xs" dimmed />. The code for “
            <UserText>{report.InstructionName}</UserText>” ({instructionText(report)}) was asked for{' '}
            <Timestamp value={report.RequestedTimestampUtc} size="xs" dimmed />{' '}
            <AskedFrom clientAddress={report.ClientAddress} userAgent={report.UserAgent} />.
          </Text>
          <Group gap="sm" mt={6} wrap="wrap">
            <PersonPageLink userName={report.UserName} size="xs" />
            <ReportHandling report={report} what={`${report.UserName}'s report`} />
          </Group>
        </div>
      </Group>
    </Paper>
  );
}
