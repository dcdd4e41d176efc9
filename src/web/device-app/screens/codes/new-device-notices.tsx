import { Badge, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceMobilePlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { describeNewDevice, type NewDeviceNotice, parseTimestamp } from '../../../../shared/contract/index.ts';
import { announce } from '../../../lib/announce.ts';
import { InlineError } from '../../../ui/inline-error.tsx';
import { Timestamp } from '../../../ui/text/timestamp.tsx';
import type { DeviceCredential } from '../../connection/device-credential.ts';
import { DEVICE_POLL_MS, deviceQueries, useReportNotice } from '../../connection/device-queries.ts';
import { ReportConfirm, ReportedAlert, ThisWasntMeButton, useReportFlow } from './report-flow.tsx';

/** Notices older than this are not shown: the person had two weeks to say it was not them. */
const SHOWN_FOR_DAYS = 14;

const NOW_STANDS: Record<NewDeviceNotice['RequestStatus'], string> = {
  Pending: 'It waits for an administrator’s approval.',
  Authorized: 'It was approved: sign-in codes go to it too.',
  Rejected: 'It was rejected: it gets no codes.',
};

/**
 * Devices enrolled or approved for this person lately, on their other phone: whoever knows the password (or holds a
 * link) could enrol one, and this is where the person finds out. Nothing shows while there is nothing to tell.
 */
export function NewDeviceNotices({ credential, live }: { credential: DeviceCredential; live: boolean }) {
  const notices = useQuery({ ...deviceQueries.notices(credential), refetchInterval: live ? false : DEVICE_POLL_MS });
  const flow = useReportFlow(
    useReportNotice(credential),
    (notice: NewDeviceNotice) => notice.Id,
    'Reported. That device gets no codes and your sessions were ended.',
  );
  // A temporary code's notice is the section beside (temporary-code-notices.tsx).
  const devices = useMemo(
    () => notices.data?.filter((notice): notice is NewDeviceNotice => notice.Kind !== 'temporary-code'),
    [notices.data],
  );
  const since = Date.now() - SHOWN_FOR_DAYS * 24 * 3600 * 1000;
  const recent = devices?.filter((notice) => (parseTimestamp(notice.NoticeTimestampUtc)?.getTime() ?? 0) > since) ?? [];

  // A notice that arrives while the page is open is spoken; those there when it opened are the page itself.
  const seen = useRef<Set<number> | null>(null);
  useEffect(() => {
    if (!devices) return;
    const before = seen.current;
    const arrived = before ? devices.filter((notice) => !before.has(notice.Id)) : [];
    if (arrived[0]) announce(`${headline(arrived[0])}: ${describeNewDevice(arrived[0])}.`);
    seen.current = new Set(devices.map((notice) => notice.Id));
  }, [devices]);

  if (notices.isError) {
    return <InlineError error={notices.error} onRetry={() => void notices.refetch()} about="New devices" />;
  }
  if (recent.length === 0 && !flow.reported) return null;
  return (
    <section aria-labelledby="device-notices">
      <Title order={2} fz="lg" mb="sm" id="device-notices">
        New devices
      </Title>
      <ReportedAlert flow={flow}>
        That device gets no codes, and every session of your account was ended. Someone who knows your password (or had
        a link of yours) enrolled it: change your password when you next sign in. Your administrators can see the
        report.
      </ReportedAlert>
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
        {recent.map((notice) => (
          <NoticeCard key={notice.Id} notice={notice} onReport={() => flow.ask(notice)} />
        ))}
      </Stack>
      <ReportConfirm flow={flow} title="Report a device you did not add?">
        {(notice) => (
          <Text size="sm">
            {describeNewDevice(notice)} is {notice.RequestStatus === 'Authorized' ? 'removed' : 'rejected'} at once, and
            every session of your account ends, on every computer: whoever added it knows your password or had a link of
            yours.
          </Text>
        )}
      </ReportConfirm>
    </section>
  );
}

const headline = (notice: NewDeviceNotice) =>
  notice.Kind === 'approved' ? 'A new device was approved for you' : 'A new device was added for you';

function NoticeCard({ notice, onReport }: { notice: NewDeviceNotice; onReport: () => void }) {
  const titleId = `notice-${notice.Id}`;
  return (
    <Paper component="li" p="md" radius="md" aria-labelledby={titleId} data-testid="device-notice">
      <Text fw={600} id={titleId}>
        <IconDeviceMobilePlus size={18} aria-hidden style={{ verticalAlign: 'text-bottom', marginRight: 6 }} />
        {headline(notice)}
      </Text>
      <Text mt={4}>{describeNewDevice(notice)}</Text>
      <Text size="sm" c="dimmed" mt={4}>
        {notice.NoticeTimestampUtc && (
          <>
            <Timestamp value={notice.NoticeTimestampUtc} />.{' '}
          </>
        )}
        {NOW_STANDS[notice.RequestStatus]}
      </Text>
      {notice.ReportedTimestampUtc ? (
        <Badge mt="sm" color="yellow" variant="light" tt="none">
          You reported it
        </Badge>
      ) : (
        <ThisWasntMeButton label={`This wasn’t me: report ${describeNewDevice(notice)}`} onClick={onReport} />
      )}
    </Paper>
  );
}
