import { Anchor, type AnchorProps, Button, type ButtonProps } from '@mantine/core';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, Ref } from 'react';

// Mantine components are polymorphic; the router needs a concrete <a> component to type `to`/`params`/`search`.
export type AnchorAttributes = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'style'> & {
  ref?: Ref<HTMLAnchorElement>;
};

function AnchorBase(props: AnchorProps & AnchorAttributes) {
  return <Anchor component="a" {...props} />;
}
function ButtonBase(props: ButtonProps & AnchorAttributes) {
  return <Button component="a" {...props} />;
}

const CreatedAnchor = createLink(AnchorBase);
const CreatedButton = createLink(ButtonBase);

export const RouterAnchor: LinkComponent<typeof AnchorBase> = (props) => <CreatedAnchor preload="intent" {...props} />;
export const RouterButton: LinkComponent<typeof ButtonBase> = (props) => <CreatedButton preload="intent" {...props} />;
