import { Badge, Group } from '@mantine/core';
import type { Account } from '../../../shared/contract/index.ts';

const METHOD_TEXT = { Passkey: 'Passkey', RecoveryCode: 'Recovery codes', DeviceCode: 'Device' } as const;

/** The kinds of second factor an account has (never a secret), and a mark on a writer who has none. */
export function SignInMethodsNote({ account }: { account: Account }) {
  if (account.SecondFactorMissing) {
    return (
      <Badge variant="light" color="orange" tt="none" style={{ minWidth: 'max-content' }}>
        No second factor
      </Badge>
    );
  }
  const methods = account.SignInMethods ?? [];
  if (methods.length === 0) return null;
  return (
    <Group gap={4} component="span">
      {methods.map((method) => (
        <Badge key={method} variant="default" tt="none" size="sm">
          {METHOD_TEXT[method]}
        </Badge>
      ))}
    </Group>
  );
}
