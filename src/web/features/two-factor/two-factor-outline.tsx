import { Grid, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { InstructionKind } from '../../../shared/contract/index.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import { TokenFields } from './token-fields.tsx';

/** What the instruction is called where the person's phone shows it. */
export const TRY_INSTRUCTION_NAME = 'Dashboard test';

/** The page's two cards: the token form, and beside it (under it on a phone) sending a code and how it works. */
export function TwoFactorColumns({ form, aside }: { form: ReactNode; aside: ReactNode }) {
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Paper p="lg" radius="md" shadow="xs">
          {form}
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Paper p="lg" radius="md" shadow="xs">
          {aside}
        </Paper>
      </Grid.Col>
    </Grid>
  );
}

/** "Send me a code" and what it does, above its button. */
export function SendCodeIntro({ kind }: { kind: InstructionKind }) {
  return (
    <>
      <Title order={2} fz="md" mb="xs" id="send-code-title">
        Send me a code
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Makes {kind === 'scheduled' ? 'a scheduled instruction' : 'an instruction'} named “{TRY_INSTRUCTION_NAME}” that
        needs two-factor, and sends its code to your active devices. Its Id goes into the form.
      </Text>
    </>
  );
}

const ignore = () => {};

/**
 * The page before its code has arrived: the header, the empty token form and the "Send me a code" card's words, laid
 * out as the page lays them out (a phone's largest text is that card's paragraph, under the form). index.html shows it
 * while the app downloads (scripts/page-outlines.ts renders it at build time); the form is inert until the app's own
 * replaces it.
 */
export function TwoFactorOutline() {
  return (
    <>
      <PageHeader title={PAGES.twoFactor.label} description={PAGES.twoFactor.description} />
      <TwoFactorColumns
        form={
          <div inert>
            <TokenFields
              kind="instruction"
              onKindChange={ignore}
              idText=""
              onIdTextChange={ignore}
              token=""
              onTokenChange={ignore}
            />
          </div>
        }
        aside={
          <section aria-labelledby="send-code-title">
            <SendCodeIntro kind="instruction" />
          </section>
        }
      />
    </>
  );
}
