import { Button, Divider } from '@mantine/core';
import { IconBuildingSkyscraper } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { OIDC_START_PATH } from '../../../shared/contract/single-sign-on.ts';
import { systemQueries } from '../../api/system-queries.ts';

/**
 * "Sign in with NAME", when the server offers single sign-on: a plain link to the server's start, which sends the
 * browser to the identity provider and, once signed in there, back to this page with a one-time code.
 */
export function SingleSignOnButton({ baseUrl, redirectTo }: { baseUrl: string; redirectTo: string }) {
  const query = useQuery(systemQueries.singleSignOn(baseUrl));
  if (!query.data?.Enabled) return null;
  const href = `${baseUrl.replace(/\/$/, '')}${OIDC_START_PATH}?${new URLSearchParams({ redirect: redirectTo })}`;
  return (
    <>
      <Divider label="or" labelPosition="center" my="md" />
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
    </>
  );
}
