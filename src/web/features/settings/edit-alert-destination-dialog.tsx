import { Button, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { AlertDestination } from '../../../shared/contract/index.ts';
import { useUpdateAlertDestination } from '../../api/queries/alert-queries.ts';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { AlertEventsField, chosenEvents } from './alert-events-field.tsx';
import { ALERT_TARGET_HINTS } from './alert-labels.ts';

/**
 * Changes a destination's name, its events and where it sends them. Email addresses are shown to change; a URL is
 * never answered whole (a chat webhook's path is its secret), so its field starts empty and empty keeps it.
 */
export function EditAlertDestinationDialog({
  destination,
  onClose,
}: {
  destination: AlertDestination;
  onClose: () => void;
}) {
  const update = useUpdateAlertDestination();
  const email = destination.Channel === 'Email';
  const [name, setName] = useState(destination.Name);
  const [target, setTarget] = useState(email ? destination.Target : '');
  const [events, setEvents] = useState<string[]>(destination.Events);
  const hint = ALERT_TARGET_HINTS[destination.Channel];
  const submit = () =>
    update.mutate(
      {
        id: destination.Id,
        body: {
          Name: name,
          Events: chosenEvents(events),
          ...(target.trim() === '' || (email && target === destination.Target) ? {} : { Target: target }),
        },
      },
      { onSuccess: onClose },
    );
  return (
    <Modal opened onClose={onClose} title={`Edit ${destination.Name}`} size="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <TextInput
            label="Name"
            required
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            data-autofocus
          />
          <TextInput
            label={hint.label}
            description={email ? hint.description : `Now ${destination.Target} Leave empty to keep it.`}
            placeholder={hint.placeholder}
            required={email}
            value={target}
            onChange={(event) => setTarget(event.currentTarget.value)}
          />
          <AlertEventsField value={events} onChange={setEvents} />
          {update.error ? <ProblemAlert error={update.error} /> : null}
          <Button type="submit" loading={update.isPending} disabled={events.length === 0}>
            Save changes
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
