import { Alert, Grid, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceMobileMessage, IconFlask, IconInfoCircle, IconRestore } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { endpoints } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { useDemoMode } from '../../api/use-demo-mode.ts';
import { notify } from '../../lib/notify.ts';
import { sheetProps, usePhone } from '../../lib/use-phone.ts';
import { DialogActions } from '../../ui/overlays/dialog-actions.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { PermissionButton } from '../../ui/permission-button.tsx';
import { LoadingState } from '../../ui/states/loading-state.tsx';
import { MessageState } from '../../ui/states/message-state.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import { useDemoReset } from './demo-mutations.ts';
import { DeviceInbox } from './device-inbox.tsx';
import { DeviceRequestForm } from './device-request-form.tsx';
import { InstructionPanel } from './instruction-panel.tsx';

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Paper p="lg" radius="md" shadow="xs" component="section" aria-labelledby={id}>
      <Title order={2} fz="md" mb="sm" id={id}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}

export function DemoPage() {
  const { demo, checking } = useDemoMode();
  if (checking) return <LoadingState label="Asking the server about demo mode…" />;
  if (!demo) {
    return (
      <MessageState
        icon={<IconFlask />}
        title="Demo mode is off"
        description="This server does not run in demo mode, so there are no other actors to play. Start it with DEMO=on (the default with the embedded database)."
      />
    );
  }
  return (
    <>
      <PageHeader title={PAGES.demo.label} description={PAGES.demo.description} actions={<ResetButton />} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack gap="lg">
            <Section title="A device asks to be authorized" id="demo-device-request">
              <DeviceRequestForm />
            </Section>
            <Section title="Create an instruction that needs your token" id="demo-instruction">
              <InstructionPanel />
            </Section>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Section title="Your device inbox" id="demo-inbox">
            <Group gap={6} mb="xs">
              <IconDeviceMobileMessage size={16} aria-hidden />
              <Text size="sm" c="dimmed">
                Tokens pushed to your Active devices.
              </Text>
            </Group>
            <DeviceInbox />
          </Section>
        </Grid.Col>
      </Grid>
    </>
  );
}

function ResetButton() {
  const [confirming, setConfirming] = useState(false);
  const reset = useDemoReset();
  const phone = usePhone();
  return (
    <>
      <PermissionButton
        endpoint={endpoints.demoReset}
        variant="default"
        color="red"
        leftSection={<IconRestore size={16} />}
        onClick={() => {
          reset.reset();
          setConfirming(true);
        }}
      >
        Reset demo data
      </PermissionButton>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Reset the demo data?"
        centered
        {...sheetProps(phone)}
      >
        <Stack gap="md">
          <Text size="sm">
            Every request, decision, status change, instruction and push goes back to how the demo started, for everyone
            using this server. Sessions stay signed in.
          </Text>
          {reset.isError && (
            <Alert color="red" icon={<IconInfoCircle />} title={describeError(reset.error).title} role="alert">
              {describeError(reset.error).message}
            </Alert>
          )}
          <DialogActions
            onCancel={() => setConfirming(false)}
            confirmLabel="Reset"
            danger
            loading={reset.isPending}
            onConfirm={() =>
              reset.mutate(undefined, {
                onSuccess: () => {
                  setConfirming(false);
                  notify({
                    color: 'green',
                    title: 'Demo data reset',
                    message: 'Everything is as it was at the start.',
                  });
                },
              })
            }
          />
        </Stack>
      </Modal>
    </>
  );
}
