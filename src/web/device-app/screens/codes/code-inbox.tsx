import { Badge, Button, CopyButton, Group, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { type DevicePush, parseTimestamp } from '../../../../shared/contract/index.ts';
import { announce } from '../../../lib/announce.ts';
import { readableUserAgent, type UserAgentParser } from '../../../lib/devices/device-description.ts';
import { useUserAgentParser } from '../../../lib/devices/use-user-agent-parser.ts';
import { formatClock } from '../../../lib/time/time-format.ts';
import { minutesAndSeconds, useNow } from '../../../lib/time/use-now.ts';
import { TOUCH_TARGET } from '../../../lib/use-phone.ts';
import { InlineError } from '../../../ui/inline-error.tsx';
import { Timestamp } from '../../../ui/text/timestamp.tsx';
import type { DeviceCredential } from '../../connection/device-credential.ts';
import { DEVICE_POLL_MS, deviceQueries, useReportPush } from '../../connection/device-queries.ts';
import { ReportConfirm, ReportedAlert, ThisWasntMeButton, useReportFlow } from './report-flow.tsx';

/** "123 456": groups of three are read and typed with fewer mistakes. */
export function groupedCode(token: string): string[] {
  return token.match(/.{1,3}/g) ?? [token];
}

const expiresAt = (push: DevicePush) => parseTimestamp(push.ExpiresTimestampUtc)?.getTime() ?? 0;

/** The codes that still work, newest first, each with where it was asked for, so the person can tell it was them. */
export function CodeInbox({ credential, live }: { credential: DeviceCredential; live: boolean }) {
  const pushes = useQuery({ ...deviceQueries.pushes(credential), refetchInterval: live ? false : DEVICE_POLL_MS });
  const now = useNow();
  const parser = useUserAgentParser();
  const flow = useReportFlow(
    useReportPush(credential),
    (push: DevicePush) => push.InstructionId,
    'Reported. Your codes no longer work and your sessions were ended.',
  );
  const valid = pushes.data?.filter((push) => expiresAt(push) > now) ?? [];

  // A code that arrives while the page is open is spoken; those already there when it opened are the page itself.
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!pushes.data) return;
    const keys = pushes.data.map((push) => `${push.InstructionId}:${push.Token}`);
    const before = seen.current;
    const arrived = before ? pushes.data.filter((_, index) => !before.has(keys[index] ?? '')) : [];
    if (arrived[0]) announce(`New sign-in code for ${arrived[0].Name}. It is first under Sign-in codes.`);
    seen.current = new Set(keys);
  }, [pushes.data]);

  return (
    <section aria-labelledby="device-codes">
      <Title order={2} fz="lg" mb="sm" id="device-codes">
        Sign-in codes
      </Title>
      <ReportedAlert flow={flow}>
        That code and every other code waiting for you no longer work, and every session of your account was ended.
        Someone who knows your password asked for it: change your password when you next sign in, then ask again for any
        code you need. Your administrators can see the report.
      </ReportedAlert>
      {pushes.isError ? (
        <InlineError error={pushes.error} onRetry={() => void pushes.refetch()} about="Codes" />
      ) : pushes.isPending ? (
        <Text size="sm" c="dimmed" role="status">
          Looking for codes…
        </Text>
      ) : valid.length === 0 ? (
        <Text size="sm" c="dimmed">
          No codes right now. When you ask for one (for example with “Send me a code” on the dashboard’s two-factor
          page), it shows here.
        </Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {valid.map((push) => (
            <CodeCard
              key={`${push.InstructionId}:${push.Token}`}
              push={push}
              now={now}
              parser={parser}
              onReport={() => flow.ask(push)}
            />
          ))}
        </Stack>
      )}
      <ReportConfirm flow={flow} title="Report a code you did not ask for?">
        {(push) => (
          <Text size="sm">
            The code for “{push.Name}” and every other code waiting for you stop working at once, and every session of
            your account ends, on every computer: whoever asked for it knows your password.
          </Text>
        )}
      </ReportConfirm>
    </section>
  );
}

function CodeCard({
  push,
  now,
  parser,
  onReport,
}: {
  push: DevicePush;
  now: number;
  parser: UserAgentParser | null;
  onReport: () => void;
}) {
  const expires = new Date(expiresAt(push));
  const what =
    push.Purpose === 'SignIn'
      ? 'Your sign-in to the dashboard: type this code there'
      : push.Purpose === 'StepUp'
        ? 'The dashboard asks you to confirm it is you: type this code there'
        : `${push.Scheduled ? 'Scheduled instruction' : 'Instruction'} ${push.InstructionId}`;
  const browser = push.UserAgent ? (parser ? readableUserAgent(parser, push.UserAgent) : push.UserAgent) : null;
  const groups = groupedCode(push.Token);
  const titleId = `code-${push.InstructionId}`;
  return (
    <Paper component="li" p="md" radius="md" aria-labelledby={titleId} data-testid="device-code-card">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div>
          <Text fw={600} id={titleId}>
            {push.Name}
          </Text>
          <Text size="xs" c="dimmed">
            {what}
          </Text>
        </div>
        {push.Scheduled && (
          <Badge variant="light" tt="none">
            Scheduled
          </Badge>
        )}
      </Group>
      <Group gap="sm" mt="sm" wrap="nowrap" justify="space-between">
        <Text
          component="p"
          m={0}
          ff="monospace"
          fz={40}
          fw={700}
          lh={1.1}
          data-testid="device-code"
          data-code={push.Token}
        >
          <span aria-hidden style={{ whiteSpace: 'nowrap' }}>
            {groups.map((group, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a code's groups never move
              <span key={index} style={{ marginRight: index < groups.length - 1 ? '0.35em' : 0 }}>
                {group}
              </span>
            ))}
          </span>
          {/* Digit by digit for screen readers, not as one large number. */}
          <VisuallyHidden>Code: {push.Token.split('').join(' ')}</VisuallyHidden>
        </Text>
        <CopyButton value={push.Token} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'light' : 'default'}
              color={copied ? 'teal' : undefined}
              h={TOUCH_TARGET}
              leftSection={copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
              onClick={() => {
                copy();
                announce('Code copied.');
              }}
              aria-label={copied ? 'Copied' : `Copy the code for ${push.Name}`}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" mt="xs">
        Works for {minutesAndSeconds((expires.getTime() - now) / 1000)} more, until{' '}
        <time dateTime={expires.toISOString()}>{formatClock(expires)}</time>
      </Text>
      <Text size="sm" c="dimmed" mt={4}>
        Asked for <Timestamp value={push.SentTimestampUtc} />
        {push.ClientAddress ? ` from ${push.ClientAddress}` : ''}
        {browser ? ` with ${browser}` : ''}.
      </Text>
      <ThisWasntMeButton label={`This wasn’t me: report the code for ${push.Name}`} onClick={onReport} />
    </Paper>
  );
}
