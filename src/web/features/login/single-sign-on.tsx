import { Button } from '@mantine/core';
import { IconBuildingSkyscraper } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { OIDC_START_PATH } from '../../../shared/contract/single-sign-on.ts';
import { systemQueries } from '../../api/system-queries.ts';

/**
 * "Sign in with NAME", when the server offers single sign-on: a plain link to the server's start, which sends the
 * browser to the identity provider and, once signed in there, back to this page with a one-time code.
 */
export function SingleSignOnButton({ baseUrl, redirectTo }: { baseUrl: string; redirectTo: string | undefined }) {
  const query = useQuery(systemQueries.singleSignOn(baseUrl));
  if (!query.data?.Enabled) return null;
  const search = redirectTo === undefined ? '' : `?${new URLSearchParams({ redirect: redirectTo })}`;
  const href = `${baseUrl.replace(/\/$/, '')}${OIDC_START_PATH}${search}`;
  return (
    <Button
      component="a"
      href={href}
      variant="default"
      fullWidth
      size="md"
      leftSection={<IconBuildingSkyscraper size={18} aria-hidden />}
    >
      Sign in with {query.data.Name}
    </Button>
  );
}
