import { Button, Text } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import { endpoints } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { useMarkReportHandled } from '../../api/queries/people-queries.ts';
import { readableUserAgent } from '../../lib/devices/device-description.ts';
import { useUserAgentParser } from '../../lib/devices/use-user-agent-parser.ts';
import { notify } from '../../lib/notify.ts';
import { confirmAction } from '../../ui/overlays/confirm-action.tsx';
import { Permitted } from '../../ui/permission-button.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';

// A code sent to a person and what they said of it, as the overview's reported codes and a person's page both show
// it. Never the code itself.

/** "scheduled instruction #1042": which instruction asked for the code. */
export function instructionText(code: { Scheduled: boolean; InstructionId: number }): string {
  return `${code.Scheduled ? 'scheduled instruction' : 'instruction'} #${code.InstructionId}`;
}

/**
 * Where a code was asked for: "from 198.51.100.23 with Firefox 128 on Linux", the browser read from its User-Agent
 * (the parser loads on demand; the raw User-Agent shows until it has).
 */
export function AskedFrom({ clientAddress, userAgent }: { clientAddress: string | null; userAgent: string | null }) {
  const parser = useUserAgentParser(userAgent !== null);
  const browser = userAgent ? (parser ? readableUserAgent(parser, userAgent) : userAgent) : null;
  return (
    <span>
      from <UserText>{clientAddress ?? 'an unknown address'}</UserText>
      {browser && (
        <>
          {' '}
          with <UserText>{browser}</UserText>
        </>
      )}
    </span>
  );
}

export interface ReportHandlingProps {
  report: { Id: number; HandledBy?: string | null; HandledTimestampUtc?: string | null };
  /** Names the report for a screen reader, where several are listed: "ACME\dana's report". */
  what: string;
}

/** Who marked a report handled and when, or the button that does (Write on Security). */
export function ReportHandling({ report, what }: ReportHandlingProps) {
  const mark = useMarkReportHandled();
  if (report.HandledBy) {
    return (
      <Text size="xs" c="dimmed">
        Handled by <UserText>{report.HandledBy}</UserText>{' '}
        <Timestamp value={report.HandledTimestampUtc} size="xs" dimmed />
      </Text>
    );
  }
  return (
    <Permitted endpoint={endpoints.markReportHandled}>
      {(refused) => (
        <Button
          size="xs"
          variant="default"
          leftSection={<IconChecks size={14} />}
          loading={mark.isPending}
          aria-label={`Mark ${what} handled`}
          onClick={() =>
            // As every action on a person: asked first, saying what it does (and does not).
            confirmAction({
              title: `Mark ${what} handled?`,
              children:
                'It leaves the list of open reports, with your name and the time. Nothing else changes: the code is already void and their sessions already ended.',
              confirm: 'Mark handled',
              destructive: false,
              onConfirm: () =>
                mark.mutate(report.Id, {
                  onSuccess: (handled) =>
                    notify({
                      color: 'green',
                      title: 'Report handled',
                      message: `Marked handled by ${handled.HandledBy}.`,
                    }),
                  onError: (error) => {
                    const { title, message } = describeError(error);
                    notify({ color: 'red', title: `Could not mark it handled: ${title}`, message });
                  },
                }),
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
