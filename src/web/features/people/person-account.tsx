import { Group, Stack, Text } from '@mantine/core';
import type { AccountHistoryEntry, Person } from '../../../shared/contract/index.ts';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { StatusBadge } from '../../ui/status-badge.tsx';
import { type Field, FieldList } from '../../ui/text/field-list.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';
import classes from './person.module.css';
import { PersonSection } from './person-section.tsx';

const permissionsText = (list: readonly string[]) => (list.length > 0 ? list.join(', ') : 'None');

/** Said where the account is withheld: what it would show and which permission shows it. */
const NEEDS_ACCOUNTS_READ = 'Read on Accounts shows it: ask an account administrator.';

/** Their account, for those who may read accounts; the Accounts page has the rest of what can be done to it. */
export function PersonAccount({ person }: { person: Person }) {
  const account = person.Account;
  return (
    <PersonSection title="Account" id="person-account">
      {!person.HasAccount ? (
        <Text size="sm" c="dimmed">
          No account here: they are known from their devices’ requests.
        </Text>
      ) : !person.AccountVisible || !account ? (
        <Text size="sm" c="dimmed">
          They have an account; its details are withheld. {NEEDS_ACCOUNTS_READ}
        </Text>
      ) : (
        <Stack gap="sm">
          <FieldList
            fields={
              [
                ['User name', account.UserName],
                ['Source', account.Source === 'Directory' ? 'Directory' : 'Local account'],
                ['State', account.Enabled ? 'Enabled' : 'Disabled'],
                ['Email', account.Email ?? 'None'],
                ['Security', permissionsText(account.Permissions.Security)],
                ['Accounts', permissionsText(account.Permissions.Accounts)],
                ['Active sessions', String(account.ActiveSessions)],
                ['Last sign-in', <Timestamp key="last" value={account.LastSignInUtc} />],
                ['Created', <Timestamp key="created" value={account.CreatedUtc} />],
              ] satisfies Field[]
            }
          />
          <RouterAnchor to="/accounts" search={{ account: account.Id }} size="sm" w="fit-content">
            Open on the Accounts page
          </RouterAnchor>
        </Stack>
      )}
    </PersonSection>
  );
}

function SignInItem({ entry }: { entry: AccountHistoryEntry }) {
  const failed = entry.Action !== 'SignedIn';
  return (
    <li className={classes.item}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">
          <Timestamp value={entry.ChangedTimestampUtc} />
          <Text span size="xs" c="dimmed">
            {' '}
            from {entry.ClientAddress ?? 'an unknown address'}
            {entry.Consumer ? (
              <>
                {' '}
                · <UserText>{entry.Consumer}</UserText>
              </>
            ) : null}
          </Text>
        </Text>
        <StatusBadge color={failed ? 'red' : 'green'}>
          {entry.Action === 'SignedIn'
            ? 'Signed in'
            : entry.Action === 'SignInFailed'
              ? 'Failed'
              : entry.Action === 'SecondStepAsked'
                ? 'Second step asked'
                : 'Directory down'}
        </StatusBadge>
      </Group>
    </li>
  );
}

/** Their latest sign-ins and failed sign-ins, for those who may read accounts. */
export function PersonSignIns({ person }: { person: Person }) {
  if (!person.HasAccount) return null;
  return (
    <PersonSection
      title="Recent sign-ins"
      count={person.AccountVisible ? person.SignIns.length : undefined}
      id="person-sign-ins"
    >
      {!person.AccountVisible ? (
        <Text size="sm" c="dimmed">
          {NEEDS_ACCOUNTS_READ}
        </Text>
      ) : person.SignIns.length === 0 ? (
        <Text size="sm" c="dimmed">
          No sign-in recorded.
        </Text>
      ) : (
        <ul className={classes.list}>
          {person.SignIns.map((entry) => (
            <SignInItem key={entry.Id} entry={entry} />
          ))}
        </ul>
      )}
    </PersonSection>
  );
}
