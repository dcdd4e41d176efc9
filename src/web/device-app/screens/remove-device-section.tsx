import { Button, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { announce } from '../../lib/announce.ts';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';
import { useRemoveDevice } from '../connection/device-queries.ts';
import { Confirm } from './confirm-dialog-host.tsx';

/** "Remove this device": the service forgets it (its push user becomes Deleted), then this browser does. */
export function RemoveDeviceSection({ pending = false }: { pending?: boolean }) {
  const remove = useRemoveDevice({ onRemoved: () => announce('This device was removed.') });
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-labelledby="device-remove">
      <Title order={2} fz="lg" mb="xs" id="device-remove">
        {pending ? 'Changed your mind?' : 'Remove this device'}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {pending
          ? 'Withdraw the request and forget this registration here.'
          : 'For a phone you are giving away or no longer use: codes stop coming to it.'}
      </Text>
      <Button
        variant="default"
        color="red.9"
        h={TOUCH_TARGET}
        fullWidth
        leftSection={<IconTrash size={18} />}
        onClick={() => {
          remove.reset();
          setConfirming(true);
        }}
      >
        Remove this device
      </Button>
      {confirming && (
        <Confirm
          title="Remove this device?"
          confirmLabel="Remove this device"
          loading={remove.isPending}
          error={remove.error}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate()}
        >
          <Text size="sm">
            Sign-in codes stop coming to this phone at once. To use it again, you register it again and an administrator
            approves it again.
          </Text>
        </Confirm>
      )}
    </section>
  );
}
