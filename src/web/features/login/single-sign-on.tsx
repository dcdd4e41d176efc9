import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconBuildingSkyscraper } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  OIDC_START_PATH,
  SINGLE_SIGN_ON_REFUSALS,
  type SingleSignOnRefusal,
} from '../../../shared/contract/single-sign-on.ts';
import { systemQueries } from '../../api/queries/system-queries.ts';

/** The server's start of single sign-on, coming back to `redirectTo` once signed in. */
function startHref(baseUrl: string, redirectTo: string | undefined): string {
  const search = redirectTo === undefined ? '' : `?${new URLSearchParams({ redirect: redirectTo })}`;
  return `${baseUrl.replace(/\/$/, '')}${OIDC_START_PATH}${search}`;
}

/**
 * "Sign in with NAME", when the server offers single sign-on: a plain link to the server's start, which sends the
 * browser to the identity provider and, once signed in there, back to this page with a one-time code.
 */
export function SingleSignOnButton({ baseUrl, redirectTo }: { baseUrl: string; redirectTo: string | undefined }) {
  const query = useQuery(systemQueries.singleSignOn(baseUrl));
  if (!query.data?.Enabled) return null;
  const href = startHref(baseUrl, redirectTo);
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

/**
 * Why single sign-on did not sign the person in, in the fixed words of the reason's code (the address bar says only
 * the code), and a way to try again.
 */
export function SingleSignOnRefused({
  reason,
  baseUrl,
  redirectTo,
}: {
  reason: SingleSignOnRefusal;
  baseUrl: string;
  redirectTo: string | undefined;
}) {
  const query = useQuery(systemQueries.singleSignOn(baseUrl));
  const { title, message } = SINGLE_SIGN_ON_REFUSALS[reason];
  return (
    <Alert color="red" icon={<IconAlertTriangle />} title={title} role="alert" mb="md">
      <Stack gap={6} align="flex-start">
        <Text size="sm">{message}</Text>
        {query.data?.Enabled && reason !== 'oidc-off' && (
          <Anchor href={startHref(baseUrl, redirectTo)} size="sm" fw={600}>
            Try again with {query.data.Name}
          </Anchor>
        )}
      </Stack>
    </Alert>
  );
}
