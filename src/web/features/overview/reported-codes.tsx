import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconChecks, IconUserExclamation } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { endpoints, type ReportedCode } from '../../../shared/contract/index.ts';
import { accountQueries } from '../../api/account-queries.ts';
import { describeError } from '../../api/describe-error.ts';
import { useMarkReportHandled } from '../../api/people-queries.ts';
import { InlineError } from '../../components/inline-error.tsx';
import { Permitted } from '../../components/permission-button.tsx';
import { PersonLink } from '../../components/person-links.tsx';
import { RouterAnchor } from '../../components/router-links.tsx';
import { Timestamp } from '../../components/timestamp.tsx';
import { readableUserAgent, type UserAgentParser } from '../../lib/device-description.ts';
import { notify } from '../../lib/notify.ts';
import { useUserAgentParser } from '../../lib/use-user-agent-parser.ts';

/** The most recent reports the overview lists; the rest are in each account's activity. */
const SHOWN = 5;

/**
 * Codes people reported from their phones as not asked for by them: whoever asked knows that person's password,
 * so account administrators see who, when, and from where.
 */
export function ReportedCodesSection() {
  const query = useQuery(accountQueries.reportedCodes());
  const hasReports = (query.data?.length ?? 0) > 0;
  const open = query.data?.filter((report) => !report.HandledBy).length ?? 0;
  const parser = useUserAgentParser(hasReports);

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
            <ReportRow key={report.Id} report={report} parser={parser} />
          ))}
          {query.data.length > SHOWN && (
            <Text component="li" size="xs" c="dimmed">
              {query.data.length - SHOWN} older {query.data.length - SHOWN === 1 ? 'report' : 'reports'}: see each
              account’s activity under Accounts.
            </Text>
          )}
        </Stack>
      )}
    </section>
  );
}

function ReportRow({ report, parser }: { report: ReportedCode; parser: UserAgentParser | null }) {
  const browser = report.UserAgent ? (parser ? readableUserAgent(parser, report.UserAgent) : report.UserAgent) : null;
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
            {report.InstructionName}” ({report.Scheduled ? 'scheduled instruction' : 'instruction'}{' '}
            {report.InstructionId}) was asked for <Timestamp value={report.RequestedTimestampUtc} size="xs" dimmed />
            {report.ClientAddress ? ` from ${report.ClientAddress}` : ''}
            {browser ? ` with ${browser}` : ''}.
          </Text>
          <Group gap="sm" mt={6} wrap="wrap">
            <RouterAnchor to="/people/$userName" params={{ userName: report.UserName }} size="xs">
              Their devices, codes and sign-ins
            </RouterAnchor>
            <HandledState report={report} />
          </Group>
        </div>
      </Group>
    </Paper>
  );
}

/** Who marked the report handled and when, or the button that does (Write on Security). */
function HandledState({ report }: { report: ReportedCode }) {
  const mark = useMarkReportHandled();
  if (report.HandledBy) {
    return (
      <Text size="xs" c="dimmed">
        Handled by {report.HandledBy} <Timestamp value={report.HandledTimestampUtc} size="xs" dimmed />
      </Text>
    );
  }
  return (
    <Permitted endpoint={endpoints.markReportHandled}>
      {(refused) => (
        <Button
          size="compact-xs"
          variant="default"
          leftSection={<IconChecks size={14} />}
          loading={mark.isPending}
          aria-label={`Mark ${report.UserName}'s report handled`}
          onClick={() =>
            mark.mutate(report.Id, {
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
