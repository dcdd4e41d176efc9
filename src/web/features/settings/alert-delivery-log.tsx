import { Badge, Group, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { AlertDelivery, AlertDestination } from '../../../shared/contract/index.ts';
import { endpoints } from '../../../shared/contract/index.ts';
import { alertQueries, useResendAlertDelivery } from '../../api/queries/alert-queries.ts';
import { PermissionButton } from '../../ui/permission-button.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { QueryState } from '../../ui/states/query-state.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';

const STATUS_COLORS: Record<AlertDelivery['Status'], string> = { Pending: 'yellow', Delivered: 'green', GaveUp: 'red' };
const STATUS_WORDS: Record<AlertDelivery['Status'], string> = {
  Pending: 'Waiting',
  Delivered: 'Delivered',
  GaveUp: 'Gave up',
};

function DeliveryRow({ delivery }: { delivery: AlertDelivery }) {
  const resend = useResendAlertDelivery();
  return (
    <Stack gap={4} py="xs" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {delivery.Summary}
        </Text>
        <Badge color={STATUS_COLORS[delivery.Status]} variant="light" style={{ flexShrink: 0 }}>
          {STATUS_WORDS[delivery.Status]}
        </Badge>
      </Group>
      <Group gap="md" wrap="wrap">
        <Timestamp value={delivery.CreatedTimestampUtc} size="xs" dimmed />
        <Text size="xs" c="dimmed">
          {delivery.Attempts === 1 ? '1 attempt' : `${delivery.Attempts} attempts`}
        </Text>
        {delivery.NextAttemptUtc && delivery.Attempts > 0 ? (
          <Text size="xs" c="dimmed">
            next try <Timestamp value={delivery.NextAttemptUtc} size="xs" dimmed />
          </Text>
        ) : null}
        <PermissionButton
          endpoint={endpoints.resendAlertDelivery}
          size="compact-xs"
          variant="subtle"
          loading={resend.isPending}
          onClick={() => resend.mutate(delivery.Id)}
        >
          Send again
        </PermissionButton>
      </Group>
      {delivery.LastError && delivery.Status !== 'Delivered' ? (
        <Text size="xs" c="red">
          {delivery.LastError}
        </Text>
      ) : null}
      {resend.error ? <ProblemAlert error={resend.error} /> : null}
    </Stack>
  );
}

/** A destination's delivery log: each alert, its status and attempts, and "Send again". */
export function AlertDeliveryLog({ destination, onClose }: { destination: AlertDestination; onClose: () => void }) {
  const query = useQuery(alertQueries.deliveries(destination.Id));
  return (
    <Modal opened onClose={onClose} title={`Delivery log: ${destination.Name}`} size="lg">
      {!query.isSuccess ? (
        <QueryState query={query} loading="Loading the delivery log…" what="alert destination" />
      ) : query.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing sent yet: alerts appear here as the events it wants happen.
        </Text>
      ) : (
        <Stack gap={0}>
          {query.data.map((delivery) => (
            <DeliveryRow key={delivery.Id} delivery={delivery} />
          ))}
        </Stack>
      )}
    </Modal>
  );
}
