import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { PageHeader } from '../../ui/page-header.tsx';
import { BACK_LINK_PROPS, TextPlaceholder } from '../../ui/text/text-placeholder.tsx';
import { PersonSection } from './person-section.tsx';

/** The back link's content, the same on the page and in its outline. */
export const BACK_TO_PEOPLE = (
  <Group gap={4}>
    <IconArrowLeft size={14} /> People
  </Group>
);

/** How the Actions card's buttons behave, said above them whoever the person is (the buttons name themselves). */
export function ActionsIntro() {
  return (
    <Text size="sm" c="dimmed" mb="sm">
      Each action asks first and is recorded in the audit log; one that does not apply says why.
    </Text>
  );
}

/**
 * A person's page before its code and data have arrived: the header and the Actions card's words, laid out as the
 * page lays them out. index.html shows it while the app downloads (scripts/page-outlines.ts renders it at build
 * time, with no router, hence the plain link).
 */
export function PersonOutline() {
  return (
    <>
      <PageHeader
        above={
          <Anchor href="/people" {...BACK_LINK_PROPS}>
            {BACK_TO_PEOPLE}
          </Anchor>
        }
        title={<TextPlaceholder width={220} />}
        description={<TextPlaceholder width={300} />}
      />
      <Stack gap="md">
        <PersonSection title="Actions" id="person-actions-outline">
          <ActionsIntro />
        </PersonSection>
      </Stack>
    </>
  );
}
