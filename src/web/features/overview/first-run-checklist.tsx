import { Button, Group, List, Paper, Progress, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import type { SetupProgress } from '../../../shared/contract/index.ts';
import { setupQueries } from '../../api/queries/queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { PAGES, pageOpensFor } from '../../wiring/pages.tsx';

const AddDeviceDialog = lazy(() =>
  import('../../entities/device/add-device-dialog.tsx').then((module) => ({ default: module.AddDeviceDialog })),
);

interface Step {
  key: string;
  title: string;
  done: boolean;
  how: ReactNode;
}

/**
 * A new organisation's first steps, on the overview until every one is done (then it goes away). Each step ticks
 * itself from what the service knows (`GET /api/Admin/Setup`); demo mode has none.
 */
export function FirstRunChecklist() {
  const { session } = useSession();
  const allowed = endpointAccess(session, setupQueries.progress.endpoint).allowed;
  const query = useQuery({ ...setupQueries.progress(), enabled: allowed });
  const [addingDevice, setAddingDevice] = useState(false);
  const progress = query.data;
  if (!allowed || !progress || progress.Demo) return null;
  const steps = stepsOf(progress, pageOpensFor(PAGES.accounts, session), () => setAddingDevice(true));
  const done = steps.filter((step) => step.done).length;
  if (done === steps.length) return null;
  return (
    <Paper p="lg" radius="md" shadow="xs" component="section" aria-labelledby="first-run-title" data-testid="first-run">
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={2} fz="lg" id="first-run-title">
          Set up your organisation
        </Title>
        <Text size="sm" c="dimmed">
          {done} of {steps.length} done
        </Text>
      </Group>
      <Progress value={(done / steps.length) * 100} size="sm" mb="md" aria-label="Set-up steps done" />
      <List spacing="md" center={false} listStyleType="none" p={0}>
        {steps.map((step) => (
          <List.Item
            key={step.key}
            data-testid={`first-run-${step.key}`}
            data-done={step.done ? 'true' : 'false'}
            icon={
              <ThemeIcon color={step.done ? 'teal' : 'gray'} variant="light" size={26} radius="xl" aria-hidden>
                {step.done ? <IconCircleCheck size={18} /> : <IconCircleDashed size={18} />}
              </ThemeIcon>
            }
          >
            <Text fw={600} size="sm" td={step.done ? 'line-through' : undefined}>
              <VisuallyHidden>{step.done ? 'Done: ' : 'To do: '}</VisuallyHidden>
              {step.title}
            </Text>
            {!step.done && (
              <Text size="sm" c="dimmed" component="div">
                {step.how}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
      {addingDevice && (
        <Suspense fallback={null}>
          <AddDeviceDialog
            onClose={() => {
              setAddingDevice(false);
              void query.refetch();
            }}
          />
        </Suspense>
      )}
    </Paper>
  );
}

function stepsOf(progress: SetupProgress, mayManageAccounts: boolean, addDevice: () => void): Step[] {
  return [
    {
      key: 'public-url',
      title: 'Set PUBLIC_URL to the address phones open',
      done: progress.PublicUrlReachable,
      how: (
        <>
          Links and QR codes now carry <code>{progress.PublicUrl}</code>, which no phone can open. Start the service
          with <code>PUBLIC_URL</code> set to the https address people use (docs/configuration.md).
        </>
      ),
    },
    {
      key: 'accounts',
      title: 'Add accounts or connect the directory',
      done: progress.AccountsAdded || progress.DirectoryConnected,
      how: mayManageAccounts ? (
        <>
          Create accounts for your helpdesk under{' '}
          <RouterAnchor to="/accounts" size="sm" underline="always">
            Accounts
          </RouterAnchor>
          , or connect your directory with <code>LDAP_URL</code> so people sign in with their own accounts.
        </>
      ) : (
        'Ask an account administrator to create accounts, or to connect your directory (LDAP_URL).'
      ),
    },
    {
      key: 'device',
      title: 'Enrol the first device',
      done: progress.DeviceEnrolled,
      how: (
        <>
          Scan a registration code with your phone; the request it makes waits for approval under Authorization
          requests.{' '}
          <Button variant="light" size="compact-sm" onClick={addDevice}>
            Add a device
          </Button>
        </>
      ),
    },
    {
      key: 'code',
      title: 'Send a first code',
      done: progress.CodeSent,
      how: (
        <>
          Once a device is approved, send yourself a code from{' '}
          <RouterAnchor to="/two-factor" size="sm" underline="always">
            Two-factor tokens
          </RouterAnchor>{' '}
          and type it back.
        </>
      ),
    },
  ];
}
