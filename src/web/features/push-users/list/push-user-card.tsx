import { Group, Stack, Text } from '@mantine/core';
import type { PushMessageUser } from '../../../../shared/contract/index.ts';
import { PushUserStatusBadge } from '../../../entities/push-user/push-user-status-badge.tsx';
import { deviceName, devicePlatform } from '../../../lib/devices/device-name.ts';
import { RouterAnchor } from '../../../ui/router-links.tsx';
import { Timestamp } from '../../../ui/text/timestamp.tsx';
import { UserText } from '../../../ui/text/user-text.tsx';
import { StatusMenu } from '../status-menu.tsx';

/** One push user in the phone rendering of the list: who, which device, when, status, and the status switcher. */
export function PushUserCard({ user, selecting }: { user: PushMessageUser; selecting: boolean }) {
  return (
    <Stack gap="sm" data-push-user-id={user.Id}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={0} miw={0}>
          {/* Padding widens the link's touch area to the card's 44 px without moving the text. */}
          <RouterAnchor to="/push-users/$id" params={{ id: user.Id }} fw={600} display="inline-block" py={12} my={-12}>
            <UserText>{user.UserName}</UserText>
          </RouterAnchor>
          <Text size="xs" c="dimmed">
            #{user.Id} · <UserText>{deviceName(user)}</UserText>
            {deviceName(user) !== user.DeviceType && (
              <>
                {' '}
                · <UserText>{devicePlatform(user)}</UserText>
              </>
            )}
          </Text>
        </Stack>
        <PushUserStatusBadge status={user.Status} />
      </Group>
      <Text size="xs" c="dimmed">
        Registered <Timestamp value={user.CreatedTimeStampUtc} size="xs" /> · changed{' '}
        <Timestamp value={user.ModifiedTimestampUtc} size="xs" />
      </Text>
      {!selecting && <StatusMenu user={user} touch />}
    </Stack>
  );
}
