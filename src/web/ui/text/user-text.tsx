import type { ReactNode } from 'react';

/**
 * Text that came from people or devices (names, e-mails, device fields, comments), isolated from the text around
 * it: a stored bidirectional override or isolate character can then never reverse what is shown beside it.
 * The service refuses such characters in new input; values from older data or another server may still hold them.
 */
export function UserText({ children }: { children: ReactNode }) {
  return <bdi>{children}</bdi>;
}
