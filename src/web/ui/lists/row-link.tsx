import { createLink, type LinkComponent } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';
import text from '../text/row-text.module.css';

function RowAnchor({
  className,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & { ref?: Ref<HTMLAnchorElement> }) {
  return <a {...props} className={`mantine-focus-auto ${text.link}${className ? ` ${className}` : ''}`} />;
}

const CreatedRowLink = createLink(RowAnchor);

/**
 * The link that names a list row's record (a request's user, a push user): RouterAnchor's look (bold, small,
 * underlined on hover, the focus ring) as a plain anchor. A list renders one per row, and Mantine's Anchor resolves
 * its styles on every render.
 */
export const RowLink: LinkComponent<typeof RowAnchor> = (props) => <CreatedRowLink preload="intent" {...props} />;
