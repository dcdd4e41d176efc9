import { Badge, Button, Checkbox, Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { memo, type ReactNode, useId, useState } from 'react';
import type { Account, AccountsPermission, GrantEntity } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { useUpdateAccountPermissions } from '../../api/queries/account-queries.ts';
import { useFirstScreen } from '../../lib/loading/use-first-screen.ts';
import { notify } from '../../lib/notify.ts';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';
import { useSession } from '../../session/session-context.tsx';
import { useTableFits } from '../../ui/lists/use-table-fits.ts';
import { LazyTooltip } from '../../ui/overlays/lazy-tooltip.tsx';
import text from '../../ui/text/row-text.module.css';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import card from './account-card.module.css';
import { GRANTS, holds, permissionToggleBlock, toggled } from './account-permissions.ts';
import { AccountKindBadge, AccountSourceBadge } from './account-source-badge.tsx';
import { SignInMethodsNote } from './sign-in-methods-note.tsx';

/**
 * The account list's columns, once: the table's header cells and the cards' labels both come from here,
 * and each row's cells from `useAccountCells`, so a column added here shows in both.
 */
const COLUMNS: ReadonlyArray<{
  key: string;
  header: string;
  /**
   * The table's two-row header: the entity once above its permissions, each column under it named by the permission
   * alone ("Read", "Contain"), so five permission columns are each a checkbox and a word wide and the table fits a laptop.
   */
  group?: { name: string; sub: string };
  align?: 'center' | 'right';
  /** Where a card shows it: among the badges, behind "Change permissions", or (unset) as a field. */
  onCard?: 'badges' | 'permissions';
}> = [
  { key: 'source', header: 'Source', onCard: 'badges' },
  { key: 'status', header: 'Status', onCard: 'badges' },
  ...GRANTS.map(([entity, permission]) => ({
    key: `${entity}-${permission}`,
    header: `${entity} ${permission}`,
    group: { name: entity, sub: permission },
    align: 'center' as const,
    onCard: 'permissions' as const,
  })),
  { key: 'last-sign-in', header: 'Last sign-in' },
  { key: 'sessions', header: 'Sessions', align: 'right' },
];

type Cells = Record<string, ReactNode>;

/** Cards a phone's first screen shows (one and a half, under the page's header and toolbar), and one more. */
const FIRST_SCREEN_CARDS = 3;

/** About the width (px) the table needs with short names: a 1,280 px laptop's 960 fit it, a 1,024 px tablet's do not. */
const TABLE_MIN_WIDTH = 900;
/** A cell's padding each side (px): Mantine's 10 across eleven columns left a 1,280 px laptop room for short names only. */
const CELL_PADDING = 8;

/** A table where it fits its frame, and cards where it does not (a phone, a tablet's width): never a sideways scroll. */
export function AccountTable({ accounts, onOpen }: { accounts: Account[]; onOpen: (id: number) => void }) {
  const [frame, fits] = useTableFits(TABLE_MIN_WIDTH);
  return (
    <div ref={frame}>
      {fits ? (
        <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing={CELL_PADDING} aria-label="Accounts">
          <AccountTableHead />
          <Table.Tbody>
            {accounts.map((account) => (
              <AccountRow key={account.Id} account={account} onOpen={onOpen} />
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <AccountCards accounts={accounts} onOpen={onOpen} />
      )}
    </div>
  );
}

/** The other headers keep to one line ("Last sign-in", not "sign-/in"); only the user names wrap, after their domain. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

function AccountTableHead() {
  const grouped = COLUMNS.filter((column) => column.group !== undefined);
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th rowSpan={2}>User name</Table.Th>
        {COLUMNS.map((column, index) => {
          if (column.group === undefined) {
            return (
              <Table.Th key={column.key} rowSpan={2} ta={column.align} style={NO_WRAP}>
                {column.header}
              </Table.Th>
            );
          }
          const group = column.group.name;
          if (COLUMNS[index - 1]?.group?.name === group) return null;
          return (
            <Table.Th
              key={group}
              colSpan={grouped.filter((other) => other.group?.name === group).length}
              scope="col"
              ta="center"
            >
              {group}
            </Table.Th>
          );
        })}
        <Table.Th rowSpan={2}>
          <VisuallyHidden>Actions</VisuallyHidden>
        </Table.Th>
      </Table.Tr>
      <Table.Tr>
        {grouped.map((column) => (
          <Table.Th key={column.key} ta="center" fw={500} aria-label={column.header}>
            {column.group?.sub}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

function AccountCards({ accounts, onOpen }: { accounts: Account[]; onOpen: (id: number) => void }) {
  const shown = useFirstScreen(accounts, FIRST_SCREEN_CARDS);
  return (
    <ul className={card.cards} aria-label="Accounts">
      {shown.map((account) => (
        <AccountCard key={account.Id} account={account} onOpen={onOpen} />
      ))}
    </ul>
  );
}

/** One account's cells, by column key; the name and the action are the row's and the card's own. */
function useAccountCells(account: Account, inCard: boolean): Cells {
  const { session } = useSession();
  const update = useUpdateAccountPermissions();
  function toggle(entity: GrantEntity, permission: AccountsPermission) {
    update.mutate(
      { id: account.Id, permissions: toggled(account.Permissions, entity, permission) },
      {
        onSuccess: () => notify({ title: 'Permissions changed', message: account.UserName }),
        onError: (error) => notify({ color: 'red', ...describeError(error) }),
      },
    );
  }
  const cells: Cells = {
    source: <AccountSourceBadge account={account} />,
    status: (
      <Badge variant="dot" color={account.Enabled ? 'teal' : 'red'} tt="none" style={{ minWidth: 'max-content' }}>
        {account.Enabled ? 'Enabled' : 'Disabled'}
      </Badge>
    ),
    'last-sign-in':
      account.Kind === 'Api' ? (
        // A script signs in seldom and calls often: when it last did anything is what tells it is still in use.
        <Stack gap={0}>
          <Timestamp value={account.LastUsedUtc ?? account.LastSignInUtc} />
          <Text size="xs" c="dimmed">
            last use
          </Text>
        </Stack>
      ) : (
        <Timestamp value={account.LastSignInUtc} />
      ),
    sessions: account.ActiveSessions,
  };
  for (const [entity, permission] of GRANTS) {
    const label = `${entity} ${permission} for ${account.UserName}`;
    const block = permissionToggleBlock(session, account, entity, permission);
    const checkbox = (
      <Checkbox
        aria-label={label}
        aria-description={block ?? undefined}
        checked={holds(account.Permissions, entity, permission)}
        disabled={block !== null || update.isPending}
        onChange={() => toggle(entity, permission)}
        size={inCard ? 'md' : 'sm'}
      />
    );
    // Only a toggle that cannot be changed has a tooltip (the reason), made when first wanted: a Tooltip per toggle
    // was most of this page's first render on a phone.
    cells[`${entity}-${permission}`] =
      block === null ? (
        checkbox
      ) : (
        <LazyTooltip label={block} events={{ hover: true, focus: true, touch: true }}>
          {checkbox}
        </LazyTooltip>
      );
  }
  return cells;
}

/** `DEMO\accounts.admin` with a line-break opportunity after the backslash, where a narrow column may wrap it. */
function BreakAfterDomain({ userName }: { userName: string }) {
  const slash = userName.indexOf('\\');
  if (slash < 0) return userName;
  return (
    <>
      {userName.slice(0, slash + 1)}
      <wbr />
      {userName.slice(slash + 1)}
    </>
  );
}

function AccountName({ account }: { account: Account }) {
  return (
    <>
      {/* Broken only between words, or after the domain's backslash: never mid-word ("accounts.a / dmin"). */}
      <Text size="sm" fw={600} style={{ overflowWrap: 'break-word' }}>
        <BreakAfterDomain userName={account.UserName} />
      </Text>
      {account.Email && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {account.Email}
        </Text>
      )}
      <AccountKindBadge account={account} />
      <SignInMethodsNote account={account} />
    </>
  );
}

function ManageButton({
  account,
  onOpen,
  inCard,
}: {
  account: Account;
  onOpen: (id: number) => void;
  inCard: boolean;
}) {
  return (
    <Button
      size={inCard ? 'sm' : 'xs'}
      h={inCard ? TOUCH_TARGET : undefined}
      fullWidth={inCard}
      variant="default"
      onClick={() => onOpen(account.Id)}
      aria-label={`Manage ${account.UserName}`}
    >
      Manage
    </Button>
  );
}

/** Memoized, as the card: the page renders again when the address or a query's state changes, the rows need not. */
const AccountRow = memo(function AccountRow({ account, onOpen }: { account: Account; onOpen: (id: number) => void }) {
  const cells = useAccountCells(account, false);
  return (
    <Table.Tr data-testid={`account-row-${account.Id}`}>
      <Table.Td>
        <AccountName account={account} />
      </Table.Td>
      {COLUMNS.map((column) => (
        <Table.Td key={column.key} ta={column.align}>
          {column.align === 'center' ? <Group justify="center">{cells[column.key]}</Group> : cells[column.key]}
        </Table.Td>
      ))}
      <Table.Td>
        <ManageButton account={account} onOpen={onOpen} inCard={false} />
      </Table.Td>
    </Table.Tr>
  );
});

/**
 * The narrow rendering (a phone, a tablet): the same cells as a card, each under its column's name, like the other
 * lists' cards. The permissions read as one line; their toggles open on "Change permissions", so a list of cards is not
 * a wall of checkboxes (five per account were most of this page's work on a phone, and most of its height).
 */
const AccountCard = memo(function AccountCard({ account, onOpen }: { account: Account; onOpen: (id: number) => void }) {
  const cells = useAccountCells(account, true);
  const { session } = useSession();
  const [changing, setChanging] = useState(false);
  const toggles = useId();
  const badges = COLUMNS.filter((column) => column.onCard === 'badges');
  const fields = COLUMNS.filter((column) => column.onCard === undefined);
  const permissions = COLUMNS.filter((column) => column.onCard === 'permissions');
  const held = GRANTS.filter(([entity, permission]) => holds(account.Permissions, entity, permission)).map(
    ([entity, permission]) => `${entity} ${permission}`,
  );
  const changeable = GRANTS.some(
    ([entity, permission]) => permissionToggleBlock(session, account, entity, permission) === null,
  );
  return (
    <Paper component="li" p="md" radius="md" shadow="xs" data-testid={`account-row-${account.Id}`}>
      <Stack gap="sm">
        <div style={{ minWidth: 0 }}>
          <AccountName account={account} />
        </div>
        <Group gap="xs">
          {badges.map((column) => (
            <span key={column.key}>{cells[column.key]}</span>
          ))}
        </Group>
        <dl className={card.fields}>
          <div className={card.field}>
            <dt className={`${text.sm} ${text.dimmed}`}>Permissions</dt>
            <dd className={`${text.sm} ${card.summary}`}>{held.length > 0 ? held.join(', ') : 'None'}</dd>
          </div>
          {fields.map((column) => (
            <div key={column.key} className={card.field}>
              <dt className={`${text.sm} ${text.dimmed}`}>{column.header}</dt>
              <dd className={text.sm}>{cells[column.key]}</dd>
            </div>
          ))}
        </dl>
        {changeable && (
          <Button
            size="sm"
            h={TOUCH_TARGET}
            variant="subtle"
            fullWidth
            aria-expanded={changing}
            aria-controls={toggles}
            onClick={() => setChanging((open) => !open)}
          >
            {changing ? 'Done changing permissions' : 'Change permissions'}
          </Button>
        )}
        {changing && (
          <dl id={toggles} className={card.fields} aria-label={`Permissions of ${account.UserName}`}>
            {permissions.map((column) => (
              <div key={column.key} className={card.field}>
                <dt className={text.sm}>{column.header}</dt>
                <dd className={text.sm}>{cells[column.key]}</dd>
              </div>
            ))}
          </dl>
        )}
        <ManageButton account={account} onOpen={onOpen} inCard />
      </Stack>
    </Paper>
  );
});
