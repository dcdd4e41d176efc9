import { Group, Paper, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { DEMO_ACCOUNTS } from '../../../shared/contract/index.ts';

export type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

export function DemoAccounts({ onPick }: { onPick: (account: DemoAccount) => void }) {
  return (
    <Paper p="md" radius="md" withBorder bg="var(--mantine-color-default-hover)">
      <Group gap={6} mb="xs">
        <IconFlask size={16} aria-hidden />
        <Text size="sm" fw={600}>
          Demo accounts
        </Text>
        <Text size="xs" c="dimmed" id="demo-account-hint">
          Click one to fill in the form.
        </Text>
      </Group>
      <SimpleGrid cols={2} spacing="xs">
        {DEMO_ACCOUNTS.map((account) => (
          <UnstyledButton
            key={account.userName}
            onClick={() => onPick(account)}
            // Named by its visible text (WCAG 2.5.3 Label in Name); the description says what it does.
            aria-describedby="demo-account-hint"
            p="xs"
            style={{
              borderRadius: 'var(--mantine-radius-sm)',
              border: '1px solid var(--mantine-color-default-border)',
            }}
            bg="var(--mantine-color-body)"
          >
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                {account.role}
              </Text>
              <Text size="xs" c="dimmed" ff="monospace">
                {account.userName}
              </Text>
              <Text size="xs">
                {account.security.length === 0 ? 'Tokens only' : `Security: ${account.security.join(', ')}`}
              </Text>
              {/* What sets the helpdesk apart from the admin: Contain, not Read and Write, on Accounts. */}
              {account.accounts.length > 0 && <Text size="xs">Accounts: {account.accounts.join(', ')}</Text>}
            </Stack>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
