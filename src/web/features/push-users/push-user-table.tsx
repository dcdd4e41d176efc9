import { Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import type { PushMessageUser } from '../../../shared/contract/index.ts';
import { RouterAnchor } from '../../components/router-links.tsx';
import { Timestamp } from '../../components/timestamp.tsx';
import { VirtualTableBody } from '../../components/virtual-table-body.tsx';
import { PushUserStatusBadge } from './push-user-status-badge.tsx';
import { StatusMenu } from './status-menu.tsx';

export interface PushUserTableProps {
  users: readonly PushMessageUser[];
  /** Selection column (bulk status changes), when the page offers it. */
  selection?: { header: ReactNode; cell: (user: PushMessageUser, index: number) => ReactNode };
}

export function PushUserTable({ users, selection }: PushUserTableProps) {
  return (
    <Paper radius="md" shadow="xs" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={760}>
        <Table
          verticalSpacing="sm"
          horizontalSpacing="md"
          highlightOnHover
          aria-label="Push message users"
          aria-rowcount={users.length + 1}
        >
          <Table.Thead>
            <Table.Tr aria-rowindex={1}>
              {selection && <Table.Th w={40}>{selection.header}</Table.Th>}
              <Table.Th>User</Table.Th>
              <Table.Th>Device</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Registered</Table.Th>
              <Table.Th>Modified</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <VirtualTableBody
            rows={users}
            rowKey={(user) => user.Id}
            estimateSize={62}
            columns={selection ? 7 : 6}
            renderRow={(user, index, rowProps) => (
              <Table.Tr {...rowProps} data-push-user-id={user.Id}>
                {selection && <Table.Td>{selection.cell(user, index)}</Table.Td>}
                <Table.Td>
                  <RouterAnchor to="/push-users/$id" params={{ id: user.Id }} fw={600} size="sm">
                    {user.UserName}
                  </RouterAnchor>
                  <Text size="xs" c="dimmed">
                    #{user.Id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{user.DeviceType}</Text>
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
          />
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
