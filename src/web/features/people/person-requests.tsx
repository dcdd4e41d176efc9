import { Button, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { endpoints, type Person, type PersonRequest } from '../../../shared/contract/index.ts';
import type { DecisionTarget } from '../../entities/request/decision.ts';
import { RequestStatusBadge } from '../../entities/request/request-status-badge.tsx';
import { deviceName } from '../../lib/devices/device-name.ts';
import { Permitted } from '../../ui/permission-button.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';
import classes from './person.module.css';
import { PersonSection } from './person-section.tsx';

const DecisionDialog = lazy(() =>
  import('../../entities/request/decision-dialog.tsx').then((module) => ({ default: module.DecisionDialog })),
);

function RequestItem({ request, onDecide }: { request: PersonRequest; onDecide: (target: DecisionTarget) => void }) {
  const name = deviceName(request);
  const status = request.Status ?? 'Pending';
  return (
    <li className={classes.item} data-request-id={request.Id}>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={2} miw={0}>
          <RouterAnchor to="/authorization-requests/$id" params={{ id: request.Id }} fw={600}>
            Request #{request.Id}: <UserText>{name}</UserText>
          </RouterAnchor>
          <Text size="xs" c="dimmed">
            <UserText>{request.DeviceType}</UserText> <UserText>{request.OsVersion}</UserText>
            {request.UserEmail ? (
              <>
                {' '}
                · <UserText>{request.UserEmail}</UserText>
              </>
            ) : null}
          </Text>
          <Text size="xs" c="dimmed">
            Asked <Timestamp value={request.CreatedTimestampUtc} size="xs" />
            {request.DecidedBy && (
              <>
                {' '}
                · {status === 'Authorized' ? 'approved' : 'rejected'} by <UserText>{request.DecidedBy}</UserText>
              </>
            )}
            {request.PushMessageUserId !== null && (
              <>
                {' '}
                · registered{' '}
                <RouterAnchor
                  to="/push-users/$id"
                  params={{ id: request.PushMessageUserId }}
                  size="xs"
                  underline="always"
                >
                  push user #{request.PushMessageUserId}
                </RouterAnchor>
              </>
            )}
          </Text>
        </Stack>
        <Group gap="xs">
          <RequestStatusBadge status={status} />
          {status === 'Pending' && (
            <>
              <Permitted endpoint={endpoints.authorizeDevice}>
                {(refused) => (
                  <Button
                    size="xs"
                    leftSection={<IconCheck size={14} />}
                    aria-label={`Approve request #${request.Id}, ${name}`}
                    onClick={() => onDecide({ request, decision: 'approve' })}
                    {...refused}
                  >
                    Approve
                  </Button>
                )}
              </Permitted>
              <Permitted endpoint={endpoints.authorizeDevice}>
                {(refused) => (
                  <Button
                    size="xs"
                    variant="filled"
                    color="red.9"
                    leftSection={<IconX size={14} />}
                    aria-label={`Reject request #${request.Id}, ${name}`}
                    onClick={() => onDecide({ request, decision: 'reject' })}
                    {...refused}
                  >
                    Reject
                  </Button>
                )}
              </Permitted>
            </>
          )}
        </Group>
      </Group>
    </li>
  );
}

/** The person's authorization requests, newest first; pending ones are decided here with the queue's dialog. */
export function PersonRequests({ person }: { person: Person }) {
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  return (
    <PersonSection title="Authorization requests" count={person.Requests.length} id="person-requests">
      {person.Requests.length === 0 ? (
        <Text size="sm" c="dimmed">
          No device of theirs has asked to be authorized.
        </Text>
      ) : (
        <ul className={classes.list}>
          {person.Requests.map((request) => (
            <RequestItem key={request.Id} request={request} onDecide={setTarget} />
          ))}
        </ul>
      )}
      {target && (
        <Suspense fallback={null}>
          <DecisionDialog target={target} onClose={() => setTarget(null)} onDecided={() => setTarget(null)} />
        </Suspense>
      )}
    </PersonSection>
  );
}
