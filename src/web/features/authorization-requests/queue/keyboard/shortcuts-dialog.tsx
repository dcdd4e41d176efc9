import { Kbd, Modal, Table, Text } from '@mantine/core';
import { useSheetProps } from '../../../../lib/use-phone.ts';

const SHORTCUTS: [keys: string[], what: string][] = [
  [['j'], 'Next request'],
  [['k'], 'Previous request'],
  [['a'], 'Approve the current request (comment, then Enter)'],
  [['r'], 'Reject the current request (comment, then Enter)'],
  [['o'], 'Open the current request'],
  [['Ctrl/⌘', 'K'], 'Command palette: pages, requests, push users'],
  [['?'], 'Show these shortcuts'],
];

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={<Text fw={650}>Keyboard shortcuts</Text>} {...useSheetProps()}>
      <Table aria-label="Keyboard shortcuts">
        <Table.Tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <Table.Tr key={what}>
              <Table.Td>
                {keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 && ' + '}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </Table.Td>
              <Table.Td>{what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="sm">
        Shortcuts are off while you type in a field. Shift+Enter adds a line to a comment.
      </Text>
    </Modal>
  );
}
