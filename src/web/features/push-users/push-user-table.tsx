import { Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import type { PushMessageUser } from '../../../shared/contract/index.ts';
import { RouterAnchor } from '../../components/router-links.tsx';
import { Timestamp } from '../../components/timestamp.tsx';
import { PushUserStatusBadge } from './push-user-status-badge.tsx';
import { StatusMenu } from './status-menu.tsx';

export function PushUserTable({ users }: { users: PushMessageUser[] }) {
  return (
    <Paper radius="md" shadow="xs" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label="Push message users">
          <Table.Thead>
            <Table.Tr>
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
          <Table.Tbody>
            {users.map((user) => (
              <Table.Tr key={user.Id} data-push-user-id={user.Id}>
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
                  <Timestamp value={user.CreatedTimeStampUtc} />
                </Table.Td>
                <Table.Td>
                  <Timestamp value={user.ModifiedTimestampUtc} relative />
                </Table.Td>
                <Table.Td ta="right">
                  <StatusMenu user={user} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
