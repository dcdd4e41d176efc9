import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconCircleCheck, IconDeviceMobilePlus, IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import type { DemoAuthorizationRequestInput } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { READABLE_TITLE } from '../../ui/text/readable-title.ts';
import { useDemoDeviceRequest } from './demo-mutations.ts';

const FIELDS: { name: keyof DemoAuthorizationRequestInput; label: string; placeholder: string }[] = [
  { name: 'UserName', label: 'User name', placeholder: 'e.g. DEMO\\jane' },
  { name: 'UserEmail', label: 'User email', placeholder: 'e.g. jane@example.com' },
  { name: 'DeviceType', label: 'Device type', placeholder: 'e.g. iOS' },
  { name: 'Manufacturer', label: 'Manufacturer', placeholder: 'e.g. Apple' },
  { name: 'Model', label: 'Model', placeholder: 'e.g. iPhone 16' },
  { name: 'OsVersion', label: 'OS version', placeholder: 'e.g. 18.1' },
];

/** Plays a phone asking to be trusted for two-factor authentication. */
export function DeviceRequestForm() {
  const [values, setValues] = useState<Record<string, string>>({});
  const mutation = useDemoDeviceRequest();

  function submit(event: FormEvent) {
    event.preventDefault();
    const input: DemoAuthorizationRequestInput = {};
    for (const { name } of FIELDS) {
      const value = values[name]?.trim();
      if (value) input[name] = value;
    }
    mutation.mutate(input);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="A device asks to be authorized">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Every field is optional; the service makes up the rest.
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {FIELDS.map((field) => (
            <TextInput
              key={field.name}
              label={field.label}
              placeholder={field.placeholder}
              value={values[field.name] ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((old) => ({ ...old, [field.name]: value }));
              }}
              size="sm"
            />
          ))}
        </SimpleGrid>
        {mutation.isError && (
          <Alert color="red" icon={<IconInfoCircle />} title={describeError(mutation.error).title} role="alert">
            {describeError(mutation.error).message}
          </Alert>
        )}
        {mutation.isSuccess && (
          <Alert
            color="green"
            icon={<IconCircleCheck />}
            title="The device asked to be authorized"
            role="status"
            styles={READABLE_TITLE}
          >
            {mutation.data.UserName}'s {mutation.data.Manufacturer} {mutation.data.Model} is waiting for a decision:{' '}
            <RouterAnchor to="/authorization-requests/$id" params={{ id: mutation.data.Id }} size="sm">
              open request #{mutation.data.Id}
            </RouterAnchor>
          </Alert>
        )}
        <Group>
          <Button type="submit" leftSection={<IconDeviceMobilePlus size={16} />} loading={mutation.isPending}>
            Send the request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
