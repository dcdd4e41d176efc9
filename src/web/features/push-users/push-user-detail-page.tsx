import { Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { PushMessageUserDetail } from '../../../shared/contract/index.ts';
import { pushUserQueries } from '../../api/queries/queries.ts';
import { HistoryTimeline } from '../../entities/activity/history-timeline.tsx';
import { PersonLink, RegisteringRequestLink } from '../../entities/person/person-links.tsx';
import { PushUserStatusBadge } from '../../entities/push-user/push-user-status-badge.tsx';
import { deviceName } from '../../lib/devices/device-name.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { EndpointGate } from '../../ui/states/endpoint-gate.tsx';
import { QueryState } from '../../ui/states/query-state.tsx';
import { type Field, FieldList } from '../../ui/text/field-list.tsx';
import { BACK_LINK_PROPS } from '../../ui/text/text-placeholder.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import { BACK_TO_PUSH_USERS, StatusExplanation } from './push-user-outline.tsx';
import { StatusSwitcher } from './status-switcher.tsx';

const route = getRouteApi('/_app/push-users/$id');

export function PushUserDetailPage() {
  const { id } = route.useParams();
  return (
    <EndpointGate query={pushUserQueries.detail} feature="Push users">
      <PushUserDetail id={id} />
    </EndpointGate>
  );
}

function deviceValue(value: string | null | undefined): React.ReactNode {
  return value ? (
    value
  ) : (
    <Text span size="sm" c="dimmed">
      Not recorded
    </Text>
  );
}

/** A moment of the device's, or why there is none: no enrolled device made this registration, or it never called. */
function deviceMoment(value: string | null | undefined, enrolled: boolean, key: string): React.ReactNode {
  if (value) return <Timestamp key={key} value={value} />;
  return (
    <Text span size="sm" c="dimmed">
      {enrolled ? 'Not since it enrolled' : 'Not enrolled through the device app'}
    </Text>
  );
}

function Fields({ user }: { user: PushMessageUserDetail }) {
  const enrolled = Boolean(user.EnrolledTimestampUtc);
  const rows: Field[] = [
    ['User', <PersonLink key="user" userName={user.UserName} />],
    ['Device type', user.DeviceType],
    // From the authorization request that registered the device; absent for devices registered otherwise.
    ['Manufacturer', deviceValue(user.Manufacturer)],
    ['Model', deviceValue(user.Model)],
    ['OS version', deviceValue(user.OsVersion)],
    ['Status', <PushUserStatusBadge key="status" status={user.Status} />],
    // One registration per device: when that device enrolled and last called the service.
    ['Enrolled', deviceMoment(user.EnrolledTimestampUtc, enrolled, 'enrolled')],
    ['Last seen', deviceMoment(user.LastSeenTimestampUtc, enrolled, 'seen')],
    ['Registered', <Timestamp key="created" value={user.CreatedTimeStampUtc} />],
    ['Last modified', <Timestamp key="modified" value={user.ModifiedTimestampUtc} />],
    ['Registered by', <RegisteringRequestLink key="request" user={user} />],
  ];
  return <FieldList fields={rows} />;
}

function PushUserDetail({ id }: { id: number }) {
  const query = useQuery(pushUserQueries.detail(id));
  if (!query.isSuccess)
    return <QueryState query={query} loading="Loading push user…" what="push user" back={PAGES.pushUsers} />;
  const user = query.data;
  return (
    <>
      <PageHeader
        above={
          <RouterAnchor to="/push-users" {...BACK_LINK_PROPS}>
            {BACK_TO_PUSH_USERS}
          </RouterAnchor>
        }
        title={<UserText>{user.UserName}</UserText>}
        description={
          <>
            Push registration #{user.Id} on <UserText>{deviceName(user)}</UserText>
          </>
        }
      />
      <Stack gap="md">
        <Paper p="lg" radius="md" shadow="xs">
          <Stack gap="sm">
            <StatusExplanation />
            <StatusSwitcher user={user} />
          </Stack>
        </Paper>
        <Paper p="lg" radius="md" shadow="xs">
          <Fields user={user} />
        </Paper>
        <HistoryTimeline entity="PushMessageUser" id={user.Id} />
      </Stack>
    </>
  );
}
