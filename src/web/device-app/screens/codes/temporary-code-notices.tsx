import { Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { parseTimestamp, type TemporaryCodeNotice } from '../../../../shared/contract/index.ts';
import { announce } from '../../../lib/announce.ts';
import { formatAbsolute } from '../../../lib/time/time-format.ts';
import { Timestamp } from '../../../ui/text/timestamp.tsx';
import type { DeviceCredential } from '../../connection/device-credential.ts';
import { DEVICE_POLL_MS, deviceQueries } from '../../connection/device-queries.ts';

/** As long as a new device's notice: two weeks to notice a code someone asked for in the person's name. */
const SHOWN_FOR_DAYS = 14;

const HEADLINE = 'A temporary code was issued for you';

/**
 * Temporary codes the helpdesk issued for this person lately: such a code signs in as them without this phone, so
 * the phone says so. Who issued it, when and until when; never the code (it went to whoever asked the helpdesk).
 * Nothing shows while there is nothing to tell. The notices list's errors are the New devices section's to show.
 */
export function TemporaryCodeNotices({ credential, live }: { credential: DeviceCredential; live: boolean }) {
  const notices = useQuery({ ...deviceQueries.notices(credential), refetchInterval: live ? false : DEVICE_POLL_MS });
  const codes = useMemo(
    () => notices.data?.filter((notice): notice is TemporaryCodeNotice => notice.Kind === 'temporary-code'),
    [notices.data],
  );
  const since = Date.now() - SHOWN_FOR_DAYS * 24 * 3600 * 1000;
  const recent = codes?.filter((notice) => (parseTimestamp(notice.NoticeTimestampUtc)?.getTime() ?? 0) > since) ?? [];

  // One that arrives while the page is open is spoken; those there when it opened are the page itself.
  const seen = useRef<Set<number> | null>(null);
  useEffect(() => {
    if (!codes) return;
    const before = seen.current;
    const arrived = before ? codes.filter((notice) => !before.has(notice.Id)) : [];
    if (arrived[0]) announce(`${HEADLINE} by ${arrived[0].IssuedBy}.`);
    seen.current = new Set(codes.map((notice) => notice.Id));
  }, [codes]);

  if (recent.length === 0) return null;
  return (
    <section aria-labelledby="temporary-code-notices">
      <Title order={2} fz="lg" mb="sm" id="temporary-code-notices">
        Temporary codes
      </Title>
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
        {recent.map((notice) => (
          <CodeNoticeCard key={notice.Id} notice={notice} />
        ))}
      </Stack>
    </section>
  );
}

function CodeNoticeCard({ notice }: { notice: TemporaryCodeNotice }) {
  const titleId = `temporary-code-notice-${notice.Id}`;
  const until = parseTimestamp(notice.ValidUntilUtc);
  const valid = until !== null && until.getTime() > Date.now();
  return (
    <Paper component="li" p="md" radius="md" aria-labelledby={titleId} data-testid="temporary-code-notice">
      <Text fw={600} id={titleId}>
        <IconKey size={18} aria-hidden style={{ verticalAlign: 'text-bottom', marginRight: 6 }} />
        {HEADLINE}
      </Text>
      <Text mt={4}>
        {notice.IssuedBy} issued it <Timestamp value={notice.NoticeTimestampUtc} />, so that you can sign in without
        this phone.
      </Text>
      {until && (
        <Text size="sm" mt={4}>
          {valid ? 'It works until ' : 'It stopped working at '}
          <time dateTime={until.toISOString()}>{formatAbsolute(until)}</time>
          {valid ? ', unless it is used up or revoked first.' : '.'}
        </Text>
      )}
      <Text size="sm" c="dimmed" mt={4}>
        Not you who asked for it? Call your helpdesk at once: they can revoke it.
      </Text>
    </Paper>
  );
}
