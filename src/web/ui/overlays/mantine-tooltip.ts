// Mantine's Tooltip, with Floating UI under it, as a chunk of its own: LazyTooltip fetches it when a tooltip is first
// wanted, so that no page waits for it to paint.
export { Tooltip } from '@mantine/core';
