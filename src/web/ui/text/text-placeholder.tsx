import { Box } from '@mantine/core';

/** A page's back link's look (above its header), the same on the page and in its outline in index.html. */
export const BACK_LINK_PROPS = { size: 'sm', w: 'fit-content' } as const;

/** A line of text still to come: a grey bar one line high, in the text's own line box, so nothing moves for it. */
export function TextPlaceholder({ width }: { width: number }) {
  return (
    <Box
      component="span"
      display="inline-block"
      w={width}
      maw="100%"
      bg="var(--mantine-color-default-border)"
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
    >
      {'\u00a0'}
    </Box>
  );
}
