import { Table, Text } from '@mantine/core';
import { memo, type ReactNode } from 'react';
import type { PushMessageUser } from '../../../shared/contract/index.ts';
import { type ListSelection, ListTable } from '../../components/list-table.tsx';
import { RouterAnchor } from '../../components/router-links.tsx';
import { Timestamp } from '../../components/timestamp.tsx';
import { UserText } from '../../components/user-text.tsx';
import { PushUserCard } from './push-user-card.tsx';
import { PushUserStatusBadge } from './push-user-status-badge.tsx';
import { StatusMenu } from './status-menu.tsx';

export interface PushUserTableProps {
  users: readonly PushMessageUser[];
  /** Selection column (bulk status changes), when the page offers it. */
  selection?: ListSelection<PushMessageUser>;
  /** Controls above the list (export). */
  toolbar?: ReactNode;
}

/** Memoized: the page renders on every keystroke, the table only when its rows or selection change. */
export const PushUserTable = memo(function PushUserTable({ users, selection, toolbar }: PushUserTableProps) {
  return (
    <ListTable
      label="Push message users"
      minWidth={700}
      headings={['User', 'Device', 'Status', 'Registered', 'Modified']}
      rows={users}
      rowKey={(user) => user.Id}
      selection={selection}
      toolbar={toolbar}
      renderRow={(user, _index, rowProps, selectCell) => (
        <Table.Tr {...rowProps} data-push-user-id={user.Id}>
          {selectCell !== undefined && <Table.Td>{selectCell}</Table.Td>}
          <Table.Td>
            <RouterAnchor to="/push-users/$id" params={{ id: user.Id }} fw={600} size="sm">
              <UserText>{user.UserName}</UserText>
            </RouterAnchor>
            <Text size="xs" c="dimmed">
              #{user.Id}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">
              <UserText>{user.DeviceType}</UserText>
            </Text>
          </Table.Td>
          <Table.Td>
            <PushUserStatusBadge status={user.Status} />
          </Table.Td>
          <Table.Td>
            <Timestamp value={user.CreatedTimeStampUtc} plain />
          </Table.Td>
          <Table.Td>
            <Timestamp value={user.ModifiedTimestampUtc} relative plain />
          </Table.Td>
          <Table.Td ta="right">
            <StatusMenu user={user} />
          </Table.Td>
        </Table.Tr>
      )}
      cardHeight={180}
      renderCard={(user, _index, card) => <PushUserCard user={user} selecting={card.selecting} />}
    />
  );
});
