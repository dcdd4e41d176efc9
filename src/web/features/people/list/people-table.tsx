import { Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { ListCell, ListRow, ListTable } from '../../../ui/lists/list-table.tsx';
import { RowLink } from '../../../ui/lists/row-link.tsx';
import { RouterAnchor } from '../../../ui/router-links.tsx';
import { StatusBadge } from '../../../ui/status-badge.tsx';
import text from '../../../ui/text/row-text.module.css';
import { Timestamp } from '../../../ui/text/timestamp.tsx';
import { UserText } from '../../../ui/text/user-text.tsx';
import type { PersonRow } from './people-search.ts';

/** How a person's devices read: "2 (1 active)", "None". */
export function devicesText(person: Pick<PersonRow, 'Devices' | 'ActiveDevices'>): string {
  if (person.Devices === 0) return 'None';
  return person.ActiveDevices === person.Devices
    ? String(person.Devices)
    : `${person.Devices} (${person.ActiveDevices} active)`;
}

function ReportMark({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <StatusBadge color="red" icon={<IconAlertTriangle size={12} />}>
      {count === 1 ? 'Open report' : `${count} open reports`}
    </StatusBadge>
  );
}

function LastSignIn({ person, size }: { person: PersonRow; size?: 'xs' | 'sm' }): ReactNode {
  if (person.LastSignInUtc) return <Timestamp value={person.LastSignInUtc} size={size} />;
  return (
    <span className={`${size === 'xs' ? text.xs : text.sm} ${text.dimmed}`}>
      {person.HasAccount ? 'Never' : 'No account'}
    </span>
  );
}

export interface PeopleTableProps {
  people: readonly PersonRow[];
  toolbar?: ReactNode;
}

/** Memoized: the page renders on every keystroke, the table only when its rows change. */
export const PeopleTable = memo(function PeopleTable({ people, toolbar }: PeopleTableProps) {
  return (
    <ListTable
      label="People"
      minWidth={720}
      headings={['Person', 'Devices', 'Pending requests', 'Last sign-in', 'Reports']}
      rows={people}
      rowKey={(person) => person.key}
      toolbar={toolbar}
      renderRow={(person, _index, rowProps) => (
        <ListRow {...rowProps} data-person={person.UserName}>
          <ListCell>
            <RowLink to="/people/$userName" params={{ userName: person.UserName }}>
              <UserText>{person.UserName}</UserText>
            </RowLink>
            {!person.HasAccount && <p className={`${text.xs} ${text.dimmed}`}>No account here</p>}
          </ListCell>
          <ListCell>
            <p className={text.sm}>{devicesText(person)}</p>
          </ListCell>
          <ListCell>
            <p className={person.PendingRequests > 0 ? text.sm : `${text.sm} ${text.dimmed}`}>
              {person.PendingRequests}
            </p>
          </ListCell>
          <ListCell>
            <LastSignIn person={person} />
          </ListCell>
          <ListCell>
            <ReportMark count={person.OpenReports} />
          </ListCell>
        </ListRow>
      )}
      rowHeight={58}
      cardHeight={124}
      renderCard={(person) => (
        <Stack gap={6} data-person={person.UserName}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            {/* Padding widens the link's touch area to 44 px without moving the text. */}
            <RouterAnchor
              to="/people/$userName"
              params={{ userName: person.UserName }}
              fw={600}
              display="inline-block"
              py={12}
              my={-12}
              miw={0}
              style={{ overflowWrap: 'anywhere' }}
            >
              <UserText>{person.UserName}</UserText>
            </RouterAnchor>
            <ReportMark count={person.OpenReports} />
          </Group>
          <Text size="xs" c="dimmed">
            Devices: {devicesText(person)} · Pending: {person.PendingRequests}
          </Text>
          <Text size="xs" c="dimmed">
            Last sign-in: <LastSignIn person={person} size="xs" />
          </Text>
        </Stack>
      )}
    />
  );
});
