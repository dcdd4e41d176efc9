import { Badge } from '@mantine/core';
import type { Account } from '../../../shared/contract/index.ts';
import { LazyTooltip } from '../../ui/overlays/lazy-tooltip.tsx';

/**
 * Why a local account in the directory's domain is marked: the service refuses the directory person of the same name
 * rather than hand them this account's grants, so the operator should know which accounts those are.
 */
export const INSIDE_DIRECTORY_DOMAIN_NOTE =
  'Made here, with a name in the directory’s domain: it keeps its own password and permissions, and the ' +
  'directory person of the same name cannot sign in while it exists.';

/**
 * Where an account comes from: the directory, single sign-on, or a local password (marked when its name is in the directory's domain).
 * `long`: the drawer's wording.
 */
export function AccountSourceBadge({ account, long = false }: { account: Account; long?: boolean }) {
  const style = { minWidth: 'max-content' };
  if (account.Source === 'Directory') {
    return (
      <Badge variant="light" color="indigo" tt="none" style={style}>
        {long ? 'Directory account' : 'Directory'}
      </Badge>
    );
  }
  if (account.Source === 'Oidc') {
    return (
      <Badge variant="light" color="teal" tt="none" style={style}>
        {long ? 'Single sign-on account' : 'Single sign-on'}
      </Badge>
    );
  }
  if (account.InsideDirectoryDomain) {
    const badge = (
      <Badge variant="light" color="orange" tt="none" style={style}>
        {long ? 'Local account, inside directory domain' : 'Local, inside directory domain'}
      </Badge>
    );
    // The long form sits beside the note itself (the account's drawer); the list gives it on hover.
    return long ? (
      badge
    ) : (
      <LazyTooltip
        label={INSIDE_DIRECTORY_DOMAIN_NOTE}
        multiline
        w={320}
        events={{ hover: true, focus: true, touch: true }}
      >
        {badge}
      </LazyTooltip>
    );
  }
  return (
    <Badge variant="light" color="gray" tt="none" style={style}>
      {long ? 'Local account' : 'Local'}
    </Badge>
  );
}

/** Marks an API account (for scripts and the SDK); a person's account carries no mark. */
export function AccountKindBadge({ account }: { account: Account }) {
  if (account.Kind !== 'Api') return null;
  return (
    <Badge variant="light" color="violet" tt="none" style={{ minWidth: 'max-content' }}>
      API account
    </Badge>
  );
}
