import { Alert, Button, CopyButton, Group, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import {
  type IssuedTemporaryCode,
  TEMPORARY_CODE_MINUTES,
  TEMPORARY_CODE_USES,
} from '../../../../shared/contract/index.ts';
import { useIssueTemporaryCode } from '../../../api/queries/people-queries.ts';
import { sheetProps, usePhone } from '../../../lib/use-phone.ts';
import { DialogActions } from '../../../ui/overlays/dialog-actions.tsx';
import { ProblemAlert } from '../../../ui/problem-alert.tsx';
import { Timestamp } from '../../../ui/text/timestamp.tsx';

/** How long a code works, as the helpdesk picks it: 10 minutes to 8 hours. */
const VALIDITY = [
  { value: '10', label: '10 minutes' },
  { value: '30', label: '30 minutes' },
  { value: '60', label: '1 hour' },
  { value: '120', label: '2 hours' },
  { value: '240', label: '4 hours' },
  { value: '480', label: '8 hours' },
];

/**
 * Issues a temporary code for a person without their phone, then shows it this once. The service asks the helpdesk
 * for a recent second factor first (step-up), in place, while the dialog waits.
 */
export function TemporaryCodeDialog({ userName, onClose }: { userName: string; onClose: () => void }) {
  const phone = usePhone();
  const issue = useIssueTemporaryCode(userName);
  const [minutes, setMinutes] = useState(String(TEMPORARY_CODE_MINUTES.default));
  const [uses, setUses] = useState<number>(TEMPORARY_CODE_USES.default);
  const [issued, setIssued] = useState<IssuedTemporaryCode | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    issue.mutate({ ValidMinutes: Number(minutes), Uses: uses }, { onSuccess: setIssued });
  }

  return (
    <Modal opened onClose={onClose} title={`A temporary code for ${userName}`} size="md" {...sheetProps(phone)}>
      {issued ? (
        <CodeOnce code={issued} userName={userName} onDone={onClose} />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">
              For someone without their phone: they type it where a code from their phone is asked, for an instruction
              or as the second step of signing in. Give it to them only once you know it is them.
            </Text>
            <Select
              label="Works for"
              data={VALIDITY}
              value={minutes}
              onChange={(value) => value && setMinutes(value)}
              allowDeselect={false}
              data-autofocus
            />
            <NumberInput
              label="Uses"
              description={`Once, or up to ${TEMPORARY_CODE_USES.max} times within that time`}
              min={TEMPORARY_CODE_USES.min}
              max={TEMPORARY_CODE_USES.max}
              clampBehavior="strict"
              allowDecimal={false}
              value={uses}
              onChange={(value) => setUses(typeof value === 'number' ? value : TEMPORARY_CODE_USES.default)}
            />
            <ProblemAlert error={issue.error} />
            <DialogActions onCancel={onClose} confirmLabel="Issue code" loading={issue.isPending} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** The code as issued: read out or copied now, since the service keeps only its hash. */
function CodeOnce({ code, userName, onDone }: { code: IssuedTemporaryCode; userName: string; onDone: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Give it to them now">
        You won’t see this code again: the service keeps only a hash of it. If it is lost, revoke it and issue another.
      </Alert>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label="Temporary code"
          value={code.Code}
          readOnly
          data-autofocus
          data-testid="temporary-code"
          onFocus={(event) => event.currentTarget.select()}
          style={{ flex: 1 }}
          styles={{
            input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-lg)' },
          }}
        />
        <CopyButton value={code.Code.replace(/\s/g, '')} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              onClick={copy}
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              aria-label={copied ? 'Copied' : 'Copy the code'}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed">
        Works for {userName} until <Timestamp value={code.ExpiresUtc} />,{' '}
        {code.UsesAllowed === 1 ? 'once' : `${code.UsesAllowed} times`}. It is never sent to their devices, and it never
        confirms a sensitive change (step-up).
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
