import { Badge, Button, Checkbox, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { Account, GrantEntity, Permission } from '../../../shared/contract/index.ts';
import { useUpdateAccountPermissions } from '../../api/account-queries.ts';
import { describeError } from '../../api/describe-error.ts';
import { Timestamp } from '../../components/timestamp.tsx';
import { notify } from '../../lib/notify.ts';
import { useSession } from '../../session/session-context.tsx';
import { permissionToggleBlock, toggled } from './account-permissions.ts';
import { AccountSourceBadge } from './account-source-badge.tsx';
import { SignInMethodsNote } from './sign-in-methods-note.tsx';

const GRANTS: ReadonlyArray<[GrantEntity, Permission]> = [
  ['Security', 'Read'],
  ['Security', 'Write'],
  ['Accounts', 'Read'],
  ['Accounts', 'Write'],
];

export function AccountTable({ accounts, onOpen }: { accounts: Account[]; onOpen: (id: number) => void }) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="Accounts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>User name</Table.Th>
            <Table.Th>Source</Table.Th>
            <Table.Th>Status</Table.Th>
            {GRANTS.map(([entity, permission]) => (
              <Table.Th key={`${entity}-${permission}`} ta="center">
                {entity} {permission}
              </Table.Th>
            ))}
            <Table.Th>Last sign-in</Table.Th>
            <Table.Th ta="right">Sessions</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {accounts.map((account) => (
            <AccountRow key={account.Id} account={account} onOpen={onOpen} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function AccountRow({ account, onOpen }: { account: Account; onOpen: (id: number) => void }) {
  const { session } = useSession();
  const update = useUpdateAccountPermissions();
  function toggle(entity: GrantEntity, permission: Permission) {
    update.mutate(
      { id: account.Id, permissions: toggled(account.Permissions, entity, permission) },
      {
        onSuccess: () => notify({ title: 'Permissions changed', message: account.UserName }),
        onError: (error) => notify({ color: 'red', ...describeError(error) }),
      },
    );
  }
  return (
    <Table.Tr data-testid={`account-row-${account.Id}`}>
      <Table.Td>
        <Text size="sm" fw={600}>
          {account.UserName}
        </Text>
        {account.Email && (
          <Text size="xs" c="dimmed">
            {account.Email}
          </Text>
        )}
        <SignInMethodsNote account={account} />
      </Table.Td>
      <Table.Td>
        <AccountSourceBadge account={account} />
      </Table.Td>
      <Table.Td>
        <Badge variant="dot" color={account.Enabled ? 'teal' : 'red'} tt="none" style={{ minWidth: 'max-content' }}>
          {account.Enabled ? 'Enabled' : 'Disabled'}
        </Badge>
      </Table.Td>
      {GRANTS.map(([entity, permission]) => {
        const label = `${entity} ${permission} for ${account.UserName}`;
        const checked = account.Permissions[entity].includes(permission);
        const block = permissionToggleBlock(session, account, entity, permission);
        const disabled = block !== null || update.isPending;
        return (
          <Table.Td key={`${entity}-${permission}`}>
            <Group justify="center">
              <Tooltip
                label={block ?? label}
                disabled={block === null}
                events={{ hover: true, focus: true, touch: true }}
              >
                <Checkbox
                  aria-label={label}
                  aria-description={block ?? undefined}
                  checked={checked}
                  disabled={disabled}
                  onChange={() => toggle(entity, permission)}
                />
              </Tooltip>
            </Group>
          </Table.Td>
        );
      })}
      <Table.Td>
        <Timestamp value={account.LastSignInUtc} relative />
      </Table.Td>
      <Table.Td ta="right">{account.ActiveSessions}</Table.Td>
      <Table.Td>
        <Button
          size="xs"
          variant="default"
          onClick={() => onOpen(account.Id)}
          aria-label={`Manage ${account.UserName}`}
        >
          Manage
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
