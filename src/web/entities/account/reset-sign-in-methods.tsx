import { IconFingerprintOff } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { type Account, endpoints } from '../../../shared/contract/index.ts';
import { accountQueries } from '../../api/queries/account-queries.ts';
import { peopleKeys } from '../../api/queries/people-queries.ts';
import { resetSignInMethods } from '../../api/queries/sign-in-method-queries.ts';
import { notify } from '../../lib/notify.ts';
import { PermissionButton } from '../../ui/permission-button.tsx';

// The dialog (a modal, with the focus trap and overlays under it) loads when the button is first pressed, not with
// the page: the Accounts page and every person's page show the button.
const ResetSignInMethodsDialog = lazy(() =>
  import('./reset-sign-in-methods-dialog.tsx').then((module) => ({ default: module.ResetSignInMethodsDialog })),
);

/**
 * The helpdesk's recovery for a person who lost their passkeys or recovery codes, or whose password someone else
 * knows: removes them all and ends the person's sessions; they add a method at their next sign-in. Nobody sees or
 * chooses the person's new factor. On the Accounts page and on the person's page; the server asks for a recent
 * second factor (step-up), which the app asks for in place while the dialog waits.
 */
export function ResetSignInMethodsButton({ account }: { account: Pick<Account, 'Id' | 'UserName'> }) {
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const reset = useMutation({
    ...resetSignInMethods,
    onSuccess: (removed) => {
      setConfirming(false);
      const devices = removed.DevicesRemoved === 1 ? '1 device' : `${removed.DevicesRemoved} devices`;
      notify({
        title: 'Sign-in methods reset',
        message: `${devices} removed. ${account.UserName} adds a new second factor at their next sign-in.`,
      });
      void queryClient.invalidateQueries({ queryKey: accountQueries.all });
      // The person's page shows their open sessions, which the reset ended.
      void queryClient.invalidateQueries({ queryKey: peopleKeys.all });
    },
  });
  const close = () => {
    setConfirming(false);
    reset.reset();
  };
  return (
    <>
      <PermissionButton
        endpoint={endpoints.resetSignInMethods}
        variant="default"
        leftSection={<IconFingerprintOff size={16} />}
        onClick={() => setConfirming(true)}
      >
        Reset sign-in methods
      </PermissionButton>
      {confirming && (
        <Suspense fallback={null}>
          <ResetSignInMethodsDialog
            userName={account.UserName}
            error={reset.error}
            pending={reset.isPending}
            onClose={close}
            onConfirm={() => reset.mutate(account.Id)}
          />
        </Suspense>
      )}
    </>
  );
}
