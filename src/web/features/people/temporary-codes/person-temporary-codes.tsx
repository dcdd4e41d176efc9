import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconKeyOff } from '@tabler/icons-react';
import { endpoints, type Person, type TemporaryCode } from '../../../../shared/contract/index.ts';
import { describeError } from '../../../api/core/describe-error.ts';
import { useRevokeTemporaryCode } from '../../../api/queries/people-queries.ts';
import { notify } from '../../../lib/notify.ts';
import { confirmAction } from '../../../ui/overlays/confirm-action.tsx';
import { Permitted } from '../../../ui/permission-button.tsx';
import { Timestamp } from '../../../ui/text/timestamp.tsx';
import { PersonSection } from '../person-section.tsx';

const STATE: Record<TemporaryCode['State'], { label: string; color: string }> = {
  Valid: { label: 'Works now', color: 'green.9' },
  UsedUp: { label: 'Used up', color: 'gray' },
  Expired: { label: 'Expired', color: 'gray' },
  Revoked: { label: 'Revoked', color: 'gray' },
};

const PURPOSE = { Instruction: 'an instruction', SignIn: 'signing in' } as const;

/** The temporary codes issued for the person (never the code): who issued each, until when, and each use. */
export function PersonTemporaryCodes({ person }: { person: Person }) {
  const codes = person.TemporaryCodes ?? [];
  if (codes.length === 0) return null;
  return (
    <PersonSection title="Temporary codes" count={codes.length} id="person-temporary-codes">
      <Stack gap="sm">
        {codes.map((code) => (
          <TemporaryCodeRow key={code.Id} code={code} userName={person.UserName} />
        ))}
      </Stack>
    </PersonSection>
  );
}

function TemporaryCodeRow({ code, userName }: { code: TemporaryCode; userName: string }) {
  const revoke = useRevokeTemporaryCode();
  const state = STATE[code.State];
  return (
    <Stack gap={4} data-testid="temporary-code-row">
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Group gap="xs" wrap="wrap">
          <Badge color={state.color} variant="light">
            {state.label}
          </Badge>
          <Text size="sm">
            By {code.IssuedBy}, <Timestamp value={code.IssuedUtc} />; until <Timestamp value={code.ExpiresUtc} />
          </Text>
        </Group>
        {code.State === 'Valid' && (
          <Permitted endpoint={endpoints.revokeTemporaryCode}>
            {(refused) => (
              <Button
                size="xs"
                variant="default"
                leftSection={<IconKeyOff size={14} />}
                loading={revoke.isPending}
                onClick={() =>
                  confirmAction({
                    title: 'Revoke this temporary code?',
                    children: `It stops working at once; ${userName} needs another to use in its place.`,
                    confirm: 'Revoke code',
                    onConfirm: () =>
                      revoke.mutate(code.Id, {
                        onSuccess: () => notify({ title: 'Temporary code revoked', message: userName }),
                        onError: (error) => notify({ color: 'red', ...describeError(error) }),
                      }),
                  })
                }
                {...refused}
              >
                Revoke
              </Button>
            )}
          </Permitted>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        Used {code.Uses.length} of {code.UsesAllowed}
        {code.Uses.map((use) => (
          <span key={use.UsedUtc}>
            {' · '}for {PURPOSE[use.Purpose]} <Timestamp value={use.UsedUtc} size="xs" dimmed />
            {use.ClientAddress ? ` from ${use.ClientAddress}` : ''}
          </span>
        ))}
        {code.RevokedBy && ` · revoked by ${code.RevokedBy}`}
      </Text>
    </Stack>
  );
}
