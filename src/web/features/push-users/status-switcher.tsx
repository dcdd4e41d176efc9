import { SegmentedControl, Stack, Text } from '@mantine/core';
import { endpoints, type PushMessageUser, type PushUserStatus, statusName } from '../../../shared/contract/index.ts';
import { usePushUserUpdatePending } from '../../api/queries/mutations.ts';
import { STATUS_VALUES } from '../../entities/push-user/push-user-status.ts';
import { useChangeStatus } from '../../entities/push-user/use-change-status.tsx';
import { usePhone } from '../../lib/use-phone.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { LazyTooltip } from '../../ui/overlays/lazy-tooltip.tsx';

/** The detail page's status switcher: all three states side by side. */
export function StatusSwitcher({ user }: { user: PushMessageUser }) {
  const { session } = useSession();
  const { change } = useChangeStatus();
  // A change of this user started anywhere (its row in the list, before opening this page) holds the switcher.
  const pending = usePushUserUpdatePending(user.Id);
  const access = endpointAccess(session, endpoints.updatePushMessageUser);
  const phone = usePhone();

  const control = (
    <SegmentedControl
      aria-label="Status"
      value={String(user.Status)}
      disabled={!access.allowed || pending}
      onChange={(value) => change(user, Number(value) as PushUserStatus)}
      data={STATUS_VALUES.map((status) => ({ value: String(status), label: statusName(status) }))}
      // A phone gets the full width and touch-sized segments.
      fullWidth={phone}
      styles={phone ? { label: { minHeight: 44, display: 'grid', placeItems: 'center' } } : undefined}
    />
  );

  return (
    <Stack gap={4} align={phone ? 'stretch' : 'flex-start'}>
      {access.allowed ? (
        control
      ) : (
        <LazyTooltip label={access.message}>
          <div>{control}</div>
        </LazyTooltip>
      )}
      {!access.allowed && (
        <Text size="xs" c="dimmed">
          {access.message}
        </Text>
      )}
    </Stack>
  );
}
