import { Alert, Anchor } from '@mantine/core';
import { IconAlertTriangle, IconSearch, IconUserPlus, IconUserQuestion } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { endpoints, type Person } from '../../../shared/contract/index.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { PermissionButton } from '../../ui/permission-button.tsx';
import { RouterButton } from '../../ui/router-links.tsx';
import { MessageState } from '../../ui/states/message-state.tsx';
import { UserText } from '../../ui/text/user-text.tsx';

/**
 * A name nobody has here (mistyped, or another domain): said in words, with the search for the name without its
 * domain one click away.
 */
const CreatePersonAccountDialog = lazy(() =>
  import('./create-person-account-dialog.tsx').then((module) => ({ default: module.CreatePersonAccountDialog })),
);

/** `DOMAIN\user`: only such a name can become an account. */
const ACCOUNT_NAME = /^[^\\/\s]+\\[^\\/]+$/;

export function UnknownPerson({ userName }: { userName: string }) {
  const name = userName.slice(userName.lastIndexOf('\\') + 1);
  const [creating, setCreating] = useState(false);
  return (
    <MessageState
      icon={<IconUserQuestion />}
      headingLevel={2}
      title="Nobody by that name"
      description={
        <>
          No account, authorization request or push user here has the user name <UserText>{userName}</UserText>. Check
          its spelling and domain, or search People for the name.
        </>
      }
    >
      <RouterButton to="/people" search={{ q: name }} variant="default" leftSection={<IconSearch size={16} />}>
        Search People for “{name}”
      </RouterButton>
      {ACCOUNT_NAME.test(userName.trim()) && (
        <PermissionButton
          endpoint={endpoints.createAccount}
          leftSection={<IconUserPlus size={16} />}
          onClick={() => setCreating(true)}
        >
          Create their account
        </PermissionButton>
      )}
      {creating && (
        <Suspense fallback={null}>
          <CreatePersonAccountDialog userName={userName.trim()} onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </MessageState>
  );
}

/**
 * An open "This wasn't me": what already happened, and what to do next, naming only what the signed-in person can
 * do here (the rest is someone else's to do).
 */
export function ReportAlert({ person, reports }: { person: Person; reports: number }) {
  const { session } = useSession();
  const mayReset = person.Account !== null && endpointAccess(session, endpoints.resetSignInMethods).allowed;
  const mayMark = endpointAccess(session, endpoints.markReportHandled).allowed;
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle />} title="Someone else may know their password">
      <UserText>{person.UserName}</UserText> said “This wasn’t me” of {reports === 1 ? 'a code' : `${reports} codes`}{' '}
      they did not ask for: all their sessions and the codes waiting for them were ended. Check where it was asked from
      under{' '}
      <Anchor href="#codes" size="sm">
        Codes sent
      </Anchor>
      {mayReset
        ? ', then reset their sign-in methods under Actions (their password is reset on the Accounts page)'
        : ', and ask an account administrator to reset their password or sign-in methods'}
      {mayMark ? '. Then mark the report handled.' : '.'}
    </Alert>
  );
}
