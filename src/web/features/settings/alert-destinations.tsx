import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { type AlertDestination, type AlertDestinationWithSecret, endpoints } from '../../../shared/contract/index.ts';
import { alertQueries, useDeleteAlertDestination, useRotateAlertSecret } from '../../api/queries/alert-queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { PermissionButton } from '../../ui/permission-button.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { QueryState } from '../../ui/states/query-state.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { ALERT_CHANNEL_LABELS, ALERT_EVENT_LABELS } from './alert-labels.ts';

// Each dialog is loaded when first opened: closed, the add dialog's Modal and form were a part of Settings' first
// render, and Modal, its focus trap and Floating UI of its first load.
const AddAlertDestinationDialog = lazy(() =>
  import('./add-alert-destination-dialog.tsx').then((module) => ({ default: module.AddAlertDestinationDialog })),
);
const AlertDeliveryLog = lazy(() =>
  import('./alert-delivery-log.tsx').then((module) => ({ default: module.AlertDeliveryLog })),
);
const EditAlertDestinationDialog = lazy(() =>
  import('./edit-alert-destination-dialog.tsx').then((module) => ({ default: module.EditAlertDestinationDialog })),
);
const AlertSecretModal = lazy(() =>
  import('./alert-secret-once.tsx').then((module) => ({ default: module.AlertSecretModal })),
);

function DestinationCard({
  destination,
  onLog,
  onEdit,
  onSecret,
}: {
  destination: AlertDestination;
  onLog: () => void;
  onEdit: () => void;
  onSecret: (made: AlertDestinationWithSecret) => void;
}) {
  const remove = useDeleteAlertDestination();
  const rotate = useRotateAlertSecret();
  const confirmRemove = () =>
    modals.openConfirmModal({
      title: `Remove ${destination.Name}?`,
      children: <Text size="sm">It stops receiving alerts, and its delivery log goes with it.</Text>,
      labels: { confirm: 'Remove', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(destination.Id),
    });
  return (
    <Paper withBorder p="sm" radius="md" data-testid="alert-destination">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="wrap">
            <Text fw={600}>{destination.Name}</Text>
            <Badge variant="light">{ALERT_CHANNEL_LABELS[destination.Channel]}</Badge>
            {destination.FailingSinceUtc ? (
              <Badge color="red" leftSection={<IconAlertTriangle size={12} />}>
                Failing
              </Badge>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            {destination.Pending > 0 ? `${destination.Pending} waiting · ` : ''}
            last delivered <Timestamp value={destination.LastDeliveredUtc} size="xs" dimmed empty="never" />
          </Text>
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {destination.Target}
        </Text>
        <Text size="sm">{destination.Events.map((kind) => ALERT_EVENT_LABELS[kind]).join(' · ')}</Text>
        {destination.FailingSinceUtc ? (
          <Text size="xs" c="red">
            Every attempt has failed since <Timestamp value={destination.FailingSinceUtc} size="xs" />: open its log to
            see why. Alerts are retried for 24 hours.
          </Text>
        ) : null}
        <Group gap="xs">
          <Button size="compact-sm" variant="default" onClick={onLog}>
            Delivery log
          </Button>
          <PermissionButton
            endpoint={endpoints.updateAlertDestination}
            size="compact-sm"
            variant="default"
            onClick={onEdit}
            aria-label={`Edit ${destination.Name}`}
          >
            Edit
          </PermissionButton>
          {destination.Signed ? (
            <PermissionButton
              endpoint={endpoints.rotateAlertSecret}
              size="compact-sm"
              variant="default"
              loading={rotate.isPending}
              onClick={() => rotate.mutate(destination.Id, { onSuccess: onSecret })}
            >
              Rotate secret
            </PermissionButton>
          ) : null}
          <PermissionButton
            endpoint={endpoints.deleteAlertDestination}
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={confirmRemove}
          >
            Remove
          </PermissionButton>
        </Group>
        {remove.error ? <ProblemAlert error={remove.error} /> : null}
        {rotate.error ? <ProblemAlert error={rotate.error} /> : null}
      </Stack>
    </Paper>
  );
}

function DestinationList() {
  const query = useQuery(alertQueries.destinations());
  const [adding, setAdding] = useState(false);
  const [log, setLog] = useState<AlertDestination | null>(null);
  const [editing, setEditing] = useState<AlertDestination | null>(null);
  const [secret, setSecret] = useState<AlertDestinationWithSecret | null>(null);
  if (!query.isSuccess)
    return <QueryState query={query} loading="Loading alert destinations…" what="alert destinations" />;
  const failing = query.data.filter((destination) => destination.FailingSinceUtc);
  return (
    <Stack gap="sm">
      {failing.length > 0 ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Alerts are not getting through">
          {failing.map((destination) => destination.Name).join(', ')}: every recent attempt failed.
        </Alert>
      ) : null}
      {query.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No destinations yet. Add one to hear of reported codes, devices waiting, permission changes and lock-outs as
          they happen.
        </Text>
      ) : (
        query.data.map((destination) => (
          <DestinationCard
            key={destination.Id}
            destination={destination}
            onLog={() => setLog(destination)}
            onEdit={() => setEditing(destination)}
            onSecret={setSecret}
          />
        ))
      )}
      <Group>
        <PermissionButton
          endpoint={endpoints.createAlertDestination}
          leftSection={<IconPlus size={16} />}
          onClick={() => setAdding(true)}
        >
          Add destination
        </PermissionButton>
      </Group>
      <Suspense fallback={null}>
        {adding ? <AddAlertDestinationDialog opened onClose={() => setAdding(false)} /> : null}
        {log ? <AlertDeliveryLog destination={log} onClose={() => setLog(null)} /> : null}
        {editing ? <EditAlertDestinationDialog destination={editing} onClose={() => setEditing(null)} /> : null}
        {secret?.Secret ? (
          <AlertSecretModal destination={secret} secret={secret.Secret} onClose={() => setSecret(null)} />
        ) : null}
      </Suspense>
    </Stack>
  );
}

/** Settings → Alerts: shown to account administrators (Accounts Read lists, Write changes). */
export function AlertDestinations() {
  const { session } = useSession();
  if (!endpointAccess(session, endpoints.listAlertDestinations).allowed) return null;
  return (
    <Paper p="lg" radius="md" shadow="xs" id="alerts">
      <Title order={2} fz="md" mb={4}>
        Alerts
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Where security events are sent as they happen: by email, or to a webhook, Slack or Teams.
      </Text>
      <DestinationList />
    </Paper>
  );
}
