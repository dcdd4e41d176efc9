import { Alert, Button, Text } from '@mantine/core';
import { IconUserExclamation } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { announce } from '../../../lib/announce.ts';
import { Confirm } from '../confirm-dialog-host.tsx';

/**
 * "This wasn't me" about one thing the phone shows (a code, a new device): the person presses it, confirms, and the
 * report is made; what it did then stays on the screen until dismissed, and is spoken once.
 */
export interface ReportFlow<Item> {
  /** The item the confirmation asks about; null while none is open. */
  reporting: Item | null;
  reported: boolean;
  busy: boolean;
  error: Error | null;
  ask(item: Item): void;
  cancel(): void;
  confirm(): void;
  dismiss(): void;
}

export function useReportFlow<Item, Id>(
  report: UseMutationResult<unknown, Error, Id>,
  idOf: (item: Item) => Id,
  announcement: string,
): ReportFlow<Item> {
  const [reporting, setReporting] = useState<Item | null>(null);
  const [reported, setReported] = useState(false);
  return {
    reporting,
    reported,
    busy: report.isPending,
    error: report.error,
    ask: (item) => {
      // A fresh question: the last attempt's error is not this one's.
      report.reset();
      setReporting(item);
    },
    cancel: () => setReporting(null),
    confirm: () => {
      if (reporting === null) return;
      report.mutate(idOf(reporting), {
        onSuccess: () => {
          setReporting(null);
          setReported(true);
          announce(announcement);
        },
      });
    },
    dismiss: () => setReported(false),
  };
}

/** The button on a card. */
export function ThisWasntMeButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button
      variant="default"
      mt="sm"
      leftSection={<IconUserExclamation size={16} />}
      onClick={onClick}
      aria-label={label}
    >
      This wasn’t me
    </Button>
  );
}

/** What the report did, in the caller's words, until the person dismisses it. */
export function ReportedAlert({ flow, children }: { flow: ReportFlow<unknown>; children: ReactNode }) {
  if (!flow.reported) return null;
  return (
    <Alert
      color="yellow"
      icon={<IconUserExclamation />}
      title="Reported"
      mb="sm"
      withCloseButton
      onClose={flow.dismiss}
      closeButtonLabel="Dismiss"
    >
      {children}
    </Alert>
  );
}

/**
 * The question before the report: what it ends, in the caller's words about the item, then what follows for the
 * person, the same for every report (their sessions end with it).
 */
export function ReportConfirm<Item>({
  flow,
  title,
  children,
}: {
  flow: ReportFlow<Item>;
  title: string;
  children: (item: Item) => ReactNode;
}) {
  if (flow.reporting === null) return null;
  return (
    <Confirm
      title={title}
      confirmLabel="Report it"
      loading={flow.busy}
      error={flow.error}
      onCancel={flow.cancel}
      onConfirm={flow.confirm}
    >
      {children(flow.reporting)}
      <Text size="sm">
        You will have to sign in again, and should change your password then. Your administrators see the report.
      </Text>
    </Confirm>
  );
}
