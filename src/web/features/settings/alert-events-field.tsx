import { Checkbox, Stack } from '@mantine/core';
import { AlertEventKind } from '../../../shared/contract/index.ts';
import { ALERT_EVENT_LABELS } from './alert-labels.ts';

/** The events a destination wants, as adding and editing one ask for them. */
export function AlertEventsField({ value, onChange }: { value: string[]; onChange: (events: string[]) => void }) {
  return (
    <Checkbox.Group label="Send when" value={value} onChange={onChange} required>
      <Stack gap={6} mt={6}>
        {AlertEventKind.options.map((kind) => (
          <Checkbox key={kind} value={kind} label={ALERT_EVENT_LABELS[kind]} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/** The checked values that are event kinds (a checkbox group hands back strings). */
export const chosenEvents = (events: string[]): AlertEventKind[] =>
  events.filter((kind): kind is AlertEventKind => AlertEventKind.safeParse(kind).success);
