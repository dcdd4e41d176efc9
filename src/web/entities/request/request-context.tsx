import { Anchor, Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ContextHintKind, OtherDevice, RequestContext } from '../../../shared/contract/index.ts';
import { requestContextQueries } from '../../api/queries/request-context-queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import text from '../../ui/text/row-text.module.css';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';
import { AskedFrom } from './code-report.tsx';

/** Hints that ask for a second look (orange), and those that reassure or inform (blue). */
const WARNING: ReadonlySet<ContextHintKind> = new Set([
  'FirstDevice',
  'NewAddress',
  'LinkIssuedByOther',
  'HoldsAccountsPermissions',
  'OpenReports',
]);

/** A hint in two words, for a queue row (the dialog and the request page say it whole). */
const SHORT: Record<ContextHintKind, string> = {
  FirstDevice: 'First device',
  HasActiveDevice: 'Has an Active device',
  NewAddress: 'New address',
  LinkIssuedByYou: 'Your link',
  LinkIssuedByOther: 'Someone else’s link',
  HoldsAccountsPermissions: 'Accounts permissions',
  OpenReports: 'Open reports',
};

function useRequestContext(id: number) {
  const { session } = useSession();
  const allowed = endpointAccess(session, requestContextQueries.endpoint).allowed;
  return useQuery({ ...requestContextQueries.one(id), enabled: allowed });
}

/**
 * The queue row's line of hints ("First device · New address"), whole in its title; nothing while it loads or when the
 * service cannot tell (a server without the extension, a caller who may not ask).
 */
export function RequestContextLine({ id }: { id: number }) {
  const query = useRequestContext(id);
  const hints = query.data?.Hints ?? [];
  if (hints.length === 0) return null;
  const warn = hints.some((hint) => WARNING.has(hint.Kind));
  return (
    <p
      // A hint that asks for a second look is in the text's own colour, bolder: orange at this size fails contrast.
      className={`${text.xs} ${warn ? text.medium : text.dimmed}`}
      style={{
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        maxWidth: 220,
      }}
      title={hints.map((hint) => hint.Text).join('\n')}
      data-request-hints={id}
    >
      {hints.map((hint) => SHORT[hint.Kind]).join(' · ')}
    </p>
  );
}

function Origin({ context }: { context: RequestContext }) {
  const origin = context.Origin;
  if (origin.Kind === 'NotRecorded') {
    return (
      <Text size="sm" c="dimmed">
        How it came was not recorded (asked before this was kept, or made in the demo console).
      </Text>
    );
  }
  return (
    <Text size="sm">
      {origin.Kind === 'Link' ? (
        <>
          From an enrolment link issued by <UserText>{origin.LinkIssuedBy ?? 'someone'}</UserText> for{' '}
          <UserText>{origin.LinkIssuedFor ?? context.UserName}</UserText>
          {origin.LinkIssuedTimestampUtc && (
            <>
              , <Timestamp value={origin.LinkIssuedTimestampUtc} />
            </>
          )}
        </>
      ) : (
        <>
          <UserText>{context.UserName}</UserText> signed in at /device with{' '}
          {origin.SignInMethod === 'SingleSignOn' ? 'single sign-on' : 'a password'}
        </>
      )}
      , <AskedFrom clientAddress={origin.ClientAddress} userAgent={origin.UserAgent} />
    </Text>
  );
}

const deviceName = (device: OtherDevice) =>
  [device.Manufacturer, device.Model].filter(Boolean).join(' ') || device.DeviceType;

function OtherDeviceItem({ device }: { device: OtherDevice }) {
  const name = <UserText>{deviceName(device)}</UserText>;
  return (
    <List.Item>
      <Text size="sm" span>
        {device.State === 'Waiting' ? 'Waiting' : device.State}:{' '}
        {device.PushMessageUserId !== null ? (
          <RouterAnchor to="/push-users/$id" params={{ id: device.PushMessageUserId }} size="sm">
            {name}
          </RouterAnchor>
        ) : device.AuthorizationRequestId !== null ? (
          <RouterAnchor to="/authorization-requests/$id" params={{ id: device.AuthorizationRequestId }} size="sm">
            {name}
          </RouterAnchor>
        ) : (
          name
        )}
        <Text span size="xs" c="dimmed">
          {' '}
          · last seen{' '}
          {device.LastSeenTimestampUtc ? <Timestamp value={device.LastSeenTimestampUtc} size="xs" /> : 'never'}
        </Text>
      </Text>
    </List.Item>
  );
}

/**
 * What an approver should know beside what the phone says of itself: hints in plain words, how the request came, the
 * person's other devices and open reports. Shown in the approve dialog and on the request's page.
 */
export function RequestContextDetails({ id }: { id: number }) {
  const query = useRequestContext(id);
  if (query.isPending && query.fetchStatus === 'idle') return null;
  if (query.isPending) {
    return (
      <Text size="sm" c="dimmed">
        Loading what is known of this request…
      </Text>
    );
  }
  if (query.isError) {
    return (
      <Text size="sm" c="dimmed">
        What is known of how this request came could not be loaded.{' '}
        <Anchor component="button" type="button" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Anchor>
      </Text>
    );
  }
  const context = query.data;
  return (
    <Stack gap="xs" data-request-context={id}>
      {context.Hints.length > 0 && (
        <Stack gap={4}>
          {context.Hints.map((hint) => {
            const warn = WARNING.has(hint.Kind);
            return (
              <Group key={hint.Kind} gap={6} wrap="nowrap" align="flex-start" data-hint={hint.Kind}>
                <ThemeIcon size={20} variant="light" color={warn ? 'orange' : 'blue'} aria-hidden>
                  {warn ? <IconAlertTriangle size={14} /> : <IconInfoCircle size={14} />}
                </ThemeIcon>
                <Text size="sm" fw={warn ? 600 : 400}>
                  <UserText>{hint.Text}</UserText>
                </Text>
              </Group>
            );
          })}
        </Stack>
      )}
      <Origin context={context} />
      <div>
        <Text size="sm" fw={600}>
          Their other devices
        </Text>
        {context.OtherDevices.length === 0 ? (
          <Text size="sm" c="dimmed">
            None.
          </Text>
        ) : (
          <List size="sm" spacing={2}>
            {context.OtherDevices.map((device) => (
              <OtherDeviceItem
                key={`${device.State}-${device.PushMessageUserId ?? device.AuthorizationRequestId}`}
                device={device}
              />
            ))}
          </List>
        )}
      </div>
      {context.OpenReports > 0 && (
        <Text size="sm">
          <RouterAnchor to="/people/$userName" params={{ userName: context.UserName }} size="sm" fw={600}>
            {context.OpenReports} open “This wasn’t me” report{context.OpenReports === 1 ? '' : 's'}
          </RouterAnchor>
        </Text>
      )}
    </Stack>
  );
}
