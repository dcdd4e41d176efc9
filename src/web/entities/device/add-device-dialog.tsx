import { Alert, Box, Button, CopyButton, Group, Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconRefresh } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { ENROLLMENT_CODE_LIFETIME_MINUTES, parseTimestamp } from '../../../shared/contract/index.ts';
import { useCreateEnrollmentLink } from '../../api/queries/mutations.ts';
import { useCreatePersonEnrollmentLink } from '../../api/queries/people-queries.ts';
import { isLoopbackUrl } from '../../lib/devices/loopback-url.ts';
import { qrCodeDataUrl } from '../../lib/devices/qr-code.ts';
import { minutesAndSeconds, useNow } from '../../lib/time/use-now.ts';
import { useFocusReturnOnUnmount } from '../../lib/use-focus-return.ts';
import { useSheetProps } from '../../lib/use-phone.ts';
import { useSession } from '../../session/session-context.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { READABLE_TITLE } from '../../ui/text/readable-title.ts';
import { EnrolledRequest, useEnrolledRequest } from './enrolled-request.tsx';

const QR_SIZE = 232;

/**
 * "Add a device": a fresh single-use enrolment link as a QR code, so a person at their desk points their phone at
 * it and the phone registers as theirs without a password. The link is also shown as text (and copyable) for
 * people who cannot scan, and counts down to its expiry; "New code" makes another.
 */
export function AddDeviceDialog({ onClose, forPerson }: { onClose: () => void; forPerson?: string }) {
  // For someone else (the helpdesk at the People page): the phone enrols as that person.
  const own = useCreateEnrollmentLink();
  const theirs = useCreatePersonEnrollmentLink(forPerson ?? '');
  const create = forPerson === undefined ? own : theirs;
  const sheet = useSheetProps();
  // Its openers unmount it on close, where Mantine's focus return does not run.
  useFocusReturnOnUnmount();
  const now = useNow();
  const [qr, setQr] = useState<string | null>(null);
  const link = create.data;

  // One link when the dialog opens (once, even when React runs the effect twice); a new one only when asked for.
  const { mutate } = create;
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    mutate();
  }, [mutate]);

  useEffect(() => {
    if (!link) return;
    let current = true;
    setQr(null);
    qrCodeDataUrl(link.Url)
      .then((url) => current && setQr(url))
      .catch(() => current && setQr(null));
    return () => {
      current = false;
    };
  }, [link]);

  // Once the phone has used the code, the dialog says so and offers Approve instead of counting down.
  const { session } = useSession();
  const enrolled = useEnrolledRequest(forPerson ?? session?.userName ?? '', link?.ExpiresTimestampUtc);
  const expires = link ? (parseTimestamp(link.ExpiresTimestampUtc)?.getTime() ?? 0) : 0;
  const secondsLeft = (expires - now) / 1000;
  const expired = link !== undefined && secondsLeft <= 0;

  return (
    <Modal
      opened
      onClose={onClose}
      title={forPerson === undefined ? 'Add a device' : `Enrol a device for ${forPerson}`}
      size="md"
      {...sheet}
    >
      {enrolled ? (
        <EnrolledRequest request={enrolled} onDone={onClose} />
      ) : (
        <Stack gap="md">
          {forPerson === undefined ? (
            <Text size="sm">
              Point your phone’s camera at the code. It opens the device app, which registers the phone as yours without
              a password; an administrator then approves it. The code works once, for {ENROLLMENT_CODE_LIFETIME_MINUTES}{' '}
              minutes.
            </Text>
          ) : (
            <Text size="sm">
              Point their phone’s camera at the code. It opens the device app, which registers the phone as{' '}
              <b>{forPerson}</b>’s without a password; its request then waits on their page and in the queue for
              approval. Give the code to nobody else: it works once, for {ENROLLMENT_CODE_LIFETIME_MINUTES} minutes.
            </Text>
          )}
          <ProblemAlert error={create.error} />
          {link && isLoopbackUrl(link.Url) && (
            <Alert
              color="yellow"
              icon={<IconAlertTriangle />}
              title="A phone cannot open this address"
              role="alert"
              styles={READABLE_TITLE}
            >
              The code carries {new URL(link.Url).host}, an address of this computer only: the service's PUBLIC_URL.
              Whoever runs the service sets PUBLIC_URL to the address people’s phones reach (for example
              https://tachyon.acme.example) and starts it again; then make a new code.
            </Alert>
          )}
          <Group justify="center">
            <Box
              w={QR_SIZE}
              h={QR_SIZE}
              bg="#fff"
              style={{ borderRadius: 8, opacity: expired ? 0.25 : 1 }}
              data-testid="enrollment-qr"
            >
              {qr && link && (
                <Image src={qr} w={QR_SIZE} h={QR_SIZE} alt={`QR code of the registration link ${link.Url}`} />
              )}
            </Box>
          </Group>
          <Text size="sm" ta="center" c={expired ? 'red.9' : undefined} fw={expired ? 600 : undefined}>
            {!link
              ? create.isPending
                ? 'Making a code…'
                : ''
              : expired
                ? 'This code has expired: make a new one.'
                : `Works for ${minutesAndSeconds(secondsLeft)} more.`}
          </Text>
          {link && (
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput
                label="Or open this link on the phone"
                value={link.Url}
                readOnly
                onFocus={(event) => event.currentTarget.select()}
                style={{ flex: 1 }}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
                data-testid="enrollment-link"
              />
              <CopyButton value={link.Url} timeout={2000}>
                {({ copied, copy }) => (
                  <Button
                    variant="default"
                    onClick={copy}
                    leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    aria-label={copied ? 'Copied' : 'Copy the link'}
                  >
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button leftSection={<IconRefresh size={16} />} loading={create.isPending} onClick={() => create.mutate()}>
              New code
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
