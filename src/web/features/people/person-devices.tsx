import { Button, Group, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleMinus } from '@tabler/icons-react';
import { endpoints, type Person, type PersonDevice, PushUserStatusCode } from '../../../shared/contract/index.ts';
import { PushUserStatusBadge } from '../../entities/push-user/push-user-status-badge.tsx';
import { useChangeStatus } from '../../entities/push-user/use-change-status.tsx';
import { deviceName } from '../../lib/devices/device-name.ts';
import { confirmAction } from '../../ui/overlays/confirm-action.tsx';
import { Permitted } from '../../ui/permission-button.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';
import classes from './person.module.css';
import { PersonSection } from './person-section.tsx';

function DeviceItem({
  device,
  change,
}: {
  device: PersonDevice;
  change: ReturnType<typeof useChangeStatus>['change'];
}) {
  const name = deviceName(device);
  const active = device.Status === PushUserStatusCode.Active;
  return (
    <li className={classes.item} data-device-id={device.Id}>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={2} miw={0}>
          <RouterAnchor to="/push-users/$id" params={{ id: device.Id }} fw={600}>
            <UserText>{name}</UserText>
          </RouterAnchor>
          <Text size="xs" c="dimmed">
            <UserText>{device.DeviceType}</UserText>
            {device.OsVersion ? (
              <>
                {' '}
                <UserText>{device.OsVersion}</UserText>
              </>
            ) : null}{' '}
            · push user #{device.Id}
            {device.AuthorizationRequestId !== null && (
              <>
                {' '}
                ·{' '}
                <RouterAnchor
                  to="/authorization-requests/$id"
                  params={{ id: device.AuthorizationRequestId }}
                  size="xs"
                  underline="always"
                >
                  request #{device.AuthorizationRequestId}
                </RouterAnchor>
              </>
            )}
          </Text>
          <Text size="xs" c="dimmed">
            Enrolled <Timestamp value={device.CreatedTimeStampUtc} size="xs" /> · last changed{' '}
            <Timestamp value={device.ModifiedTimestampUtc} size="xs" />
          </Text>
        </Stack>
        <Group gap="xs">
          <PushUserStatusBadge status={device.Status} />
          <Permitted endpoint={endpoints.updatePushMessageUser}>
            {(refused) =>
              active ? (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconCircleMinus size={14} />}
                  aria-label={`Disable ${name} (push user #${device.Id})`}
                  onClick={() =>
                    confirmAction({
                      title: `Disable ${device.UserName}'s ${name}?`,
                      children:
                        'It stops receiving push messages and two-factor codes at once. The registration stays, and can be made active again here or on the push user’s page.',
                      confirm: 'Disable device',
                      onConfirm: () => change(device, PushUserStatusCode.Disabled),
                    })
                  }
                  {...refused}
                >
                  Disable
                </Button>
              ) : (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconCircleCheck size={14} />}
                  aria-label={`Make ${name} active again (push user #${device.Id})`}
                  onClick={() => change(device, PushUserStatusCode.Active)}
                  {...refused}
                >
                  Make active
                </Button>
              )
            }
          </Permitted>
        </Group>
      </Group>
    </li>
  );
}

/** Each push user registration of the person (one per device), newest last, with its status and what to do. */
export function PersonDevices({ person }: { person: Person }) {
  const { change } = useChangeStatus();
  return (
    <PersonSection title="Devices" count={person.Devices.length} id="person-devices">
      {person.Devices.length === 0 ? (
        <Text size="sm" c="dimmed">
          No device registered. A device appears here once its request is approved.
        </Text>
      ) : (
        <ul className={classes.list}>
          {person.Devices.map((device) => (
            <DeviceItem key={device.Id} device={device} change={change} />
          ))}
        </ul>
      )}
    </PersonSection>
  );
}
