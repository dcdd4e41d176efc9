import { Code, List, Stack, Title } from '@mantine/core';

/**
 * What to do when the passkey is out of reach (left at home, on a lost phone, a broken key): each way forward this
 * person has, then whom to ask, so the second step is never a dead end.
 */
export function SecondStepHelp({ methods }: { methods: readonly string[] }) {
  const ways: string[] = [];
  if (methods.includes('DeviceCode')) ways.push('Send a code to your phone and type it here.');
  if (methods.includes('RecoveryCode')) ways.push('Type one of your recovery codes (each works once).');
  return (
    <Stack gap={4} component="section" aria-labelledby="second-step-help">
      <Title order={2} size="sm" id="second-step-help">
        No passkey with you?
      </Title>
      <List size="sm" spacing={4}>
        {ways.map((way) => (
          <List.Item key={way}>{way}</List.Item>
        ))}
        <List.Item>
          Ask your helpdesk for a temporary code. They check it is you, and the code works for a short time in place of
          your passkey.
        </List.Item>
        <List.Item>
          No helpdesk, or this is the only administrator? Whoever runs the service can reset this account's sign-in on
          the server with <Code>npm run reset-sign-in -- 'YOUR\name'</Code>; you then sign in with your password and add
          a new passkey.
        </List.Item>
      </List>
    </Stack>
  );
}
