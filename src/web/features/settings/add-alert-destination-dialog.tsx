import { Button, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { AlertChannel, type AlertDestinationWithSecret } from '../../../shared/contract/index.ts';
import { useCreateAlertDestination } from '../../api/queries/alert-queries.ts';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { AlertEventsField, chosenEvents } from './alert-events-field.tsx';
import { ALERT_TARGET_HINTS } from './alert-labels.ts';
import { AlertSecretOnce } from './alert-secret-once.tsx';

/** Adds an alert destination; a Webhook's signing secret is shown once, after. */
export function AddAlertDestinationDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateAlertDestination();
  const [channel, setChannel] = useState<AlertChannel>('Webhook');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [events, setEvents] = useState<string[]>(['CodeReported', 'PermissionsChanged', 'LockedOut']);
  const [made, setMade] = useState<AlertDestinationWithSecret | null>(null);
  const hint = ALERT_TARGET_HINTS[channel];
  const close = () => {
    create.reset();
    setMade(null);
    setName('');
    setTarget('');
    onClose();
  };
  const submit = () =>
    create.mutate(
      {
        Name: name,
        Channel: channel,
        Target: target,
        Events: chosenEvents(events),
      },
      {
        onSuccess: (destination) => {
          if (destination.Secret) setMade(destination);
          else close();
        },
      },
    );
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={made ? 'Webhook signing secret' : 'Add an alert destination'}
      // The secret is shown once: Escape or a click beside it must not lose it unseen.
      closeOnEscape={!made}
      closeOnClickOutside={!made}
      withCloseButton={!made}
      size="lg"
    >
      {made?.Secret ? (
        <AlertSecretOnce name={made.Name} secret={made.Secret} onDone={close} />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack gap="md">
            <SegmentedControl
              aria-label="How alerts are sent"
              value={channel}
              onChange={(value) => setChannel(AlertChannel.parse(value))}
              // The channels' own short names: four fit a phone's width.
              data={AlertChannel.options}
              fullWidth
            />
            <TextInput
              label="Name"
              placeholder="Security team"
              required
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              data-autofocus
            />
            <TextInput
              label={hint.label}
              description={hint.description}
              placeholder={hint.placeholder}
              required
              value={target}
              onChange={(event) => setTarget(event.currentTarget.value)}
            />
            <AlertEventsField value={events} onChange={setEvents} />
            {create.error ? <ProblemAlert error={create.error} /> : null}
            <Text size="xs" c="dimmed">
              Alerts name people and what happened, with a link back here; never a code or a secret.
            </Text>
            <Button type="submit" loading={create.isPending} disabled={events.length === 0}>
              Add destination
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
