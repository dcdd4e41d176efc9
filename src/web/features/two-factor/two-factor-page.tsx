import { List, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceMobileMessage } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { type InstructionKind, MAX_TOKEN_ATTEMPTS, TOKEN_LIFETIME_MINUTES } from '../../../shared/contract/index.ts';
import { useSession } from '../../session/session-context.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { PAGES, pageOpensFor } from '../../wiring/pages.tsx';
import { SendCodePanel } from './send-code-panel.tsx';
import { TokenForm } from './token-form.tsx';
import { TwoFactorColumns } from './two-factor-outline.tsx';

const route = getRouteApi('/_app/two-factor');

export function TwoFactorPage() {
  const { kind, id } = route.useSearch();
  const navigate = route.useNavigate();
  const { session } = useSession();
  const canSeePushUsers = pageOpensFor(PAGES.pushUsers, session);
  const [formKind, setFormKind] = useState<InstructionKind>(kind ?? 'instruction');
  const [authenticated, setAuthenticated] = useState<{ kind: InstructionKind; id: number } | null>(null);
  return (
    <>
      <PageHeader title={PAGES.twoFactor.label} description={PAGES.twoFactor.description} />
      <TwoFactorColumns
        form={
          <TokenForm
            key={`${kind}-${id}`}
            initialKind={kind}
            initialId={id}
            onKindChange={setFormKind}
            onAuthenticated={(doneKind, doneId) => setAuthenticated({ kind: doneKind, id: doneId })}
          />
        }
        aside={
          <>
            {/* The new instruction's Id goes into the form through the address, as the demo inbox's links do. */}
            <SendCodePanel
              kind={formKind}
              authenticated={authenticated}
              onCreated={(instruction) =>
                void navigate({
                  search: { kind: instruction.Scheduled ? 'scheduled' : 'instruction', id: instruction.Id },
                })
              }
            />
            <ThemeIcon variant="light" size="lg" radius="md" mt="xl" mb="sm" aria-hidden>
              <IconDeviceMobileMessage size={20} />
            </ThemeIcon>
            <Title order={2} fz="md" mb="xs">
              How it works
            </Title>
            <List size="sm" spacing={6} c="dimmed">
              <List.Item>An instruction that needs two-factor authentication waits for its token.</List.Item>
              <List.Item>
                The token is pushed to your active devices and is valid for {TOKEN_LIFETIME_MINUTES} minutes.
              </List.Item>
              <List.Item>Only the person who created the instruction can submit its token.</List.Item>
              <List.Item>
                After {MAX_TOKEN_ATTEMPTS} wrong tokens the instruction locks until a new token is sent.
              </List.Item>
            </List>
            <Text size="xs" c="dimmed" mt="sm">
              {canSeePushUsers
                ? 'No token arriving? Check under Push users that your device is Active, or open the device app at /device on your phone.'
                : 'No token arriving? Open the device app at /device on your phone: it shows whether your device is approved.'}
            </Text>
          </>
        }
      />
    </>
  );
}
