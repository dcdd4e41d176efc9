import { Badge, Button, Group, Modal, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { sheetProps, TOUCH_TARGET, usePhone } from '../../../lib/use-phone.ts';
import { type BulkItem, type BulkOutcome, runBulk } from './bulk-run.ts';

export interface BulkDialogProps {
  title: string;
  /** e.g. "Approve 12 requests" — the confirmation states the count. */
  confirmLabel: string;
  confirmColor?: string;
  items: { id: number; label: string }[];
  /** Extra inputs (a comment, a status) shown before the run. */
  children?: ReactNode;
  runOne: (id: number) => Promise<unknown>;
  onClose: () => void;
  onFinished: () => void;
}

const OUTCOME: Record<BulkOutcome, { label: string; color: string }> = {
  pending: { label: 'Waiting', color: 'gray' },
  running: { label: 'Working…', color: 'blue' },
  done: { label: 'Done', color: 'green' },
  already: { label: 'Already decided', color: 'yellow' },
  failed: { label: 'Failed', color: 'red' },
};

/** Confirm, then run one call per item with per-item progress and results, and "retry failed". */
export function BulkDialog({
  title,
  confirmLabel,
  confirmColor,
  items,
  children,
  runOne,
  onClose,
  onFinished,
}: BulkDialogProps) {
  const [results, setResults] = useState<BulkItem[] | null>(null);
  const [running, setRunning] = useState(false);
  const phone = usePhone();
  const touch = phone ? TOUCH_TARGET : undefined;

  async function run(ids: number[]) {
    setRunning(true);
    setResults((old) => {
      const base = old ?? items.map((item) => ({ ...item, outcome: 'pending' as BulkOutcome }));
      return base.map((item) => (ids.includes(item.id) ? { ...item, outcome: 'pending', reason: undefined } : item));
    });
    await runBulk(ids, runOne, (id, outcome, reason) =>
      setResults((old) => old?.map((item) => (item.id === id ? { ...item, outcome, reason } : item)) ?? null),
    );
    setRunning(false);
    onFinished();
  }

  const counts: Partial<Record<BulkOutcome, number>> = {};
  for (const item of results ?? []) counts[item.outcome] = (counts[item.outcome] ?? 0) + 1;
  const finished = (counts.done ?? 0) + (counts.already ?? 0) + (counts.failed ?? 0);
  const failedIds = (results ?? []).filter((item) => item.outcome === 'failed').map((item) => item.id);

  return (
    <Modal
      opened
      onClose={running ? () => undefined : onClose}
      title={<Text fw={650}>{title}</Text>}
      size="lg"
      {...sheetProps(phone)}
    >
      <Stack gap="md">
        {results === null ? (
          <>
            {children}
            <Group justify="flex-end" grow={phone}>
              <Button variant="default" onClick={onClose} h={touch}>
                Cancel
              </Button>
              <Button color={confirmColor} h={touch} onClick={() => void run(items.map((item) => item.id))}>
                {confirmLabel}
              </Button>
            </Group>
          </>
        ) : (
          <>
            <Progress
              value={(finished / items.length) * 100}
              aria-label={`${finished} of ${items.length} done`}
              animated={running}
            />
            <Text size="sm" role="status">
              {finished} of {items.length}: {counts.done ?? 0} done, {counts.already ?? 0} already decided,{' '}
              {counts.failed ?? 0} failed
            </Text>
            <ScrollArea.Autosize mah={300}>
              <Table aria-label="Results">
                <Table.Tbody>
                  {results.map((item) => (
                    <Table.Tr key={item.id} data-bulk-id={item.id}>
                      <Table.Td>{item.label}</Table.Td>
                      <Table.Td>
                        <Badge color={OUTCOME[item.outcome].color} variant="light">
                          {OUTCOME[item.outcome].label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" c="dimmed">
                          {item.reason}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
            <Group justify="flex-end" grow={phone}>
              {failedIds.length > 0 && !running && (
                <Button variant="light" color="red" h={touch} onClick={() => void run(failedIds)}>
                  Retry failed ({failedIds.length})
                </Button>
              )}
              <Button variant="default" onClick={onClose} disabled={running} h={touch}>
                Close
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
