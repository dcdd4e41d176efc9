import { Alert, Box, Button, Center, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconLogin, IconServer } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { systemQueries } from '../../api/system-queries.ts';
import { BrandMark } from '../../components/app-shell/brand-mark.tsx';
import { RouterAnchor } from '../../components/router-links.tsx';
import { useSession } from '../../session/session-context.tsx';
import { resolveApiVersion } from '../../settings/resolve-version.ts';
import { useSettings } from '../../settings/use-settings.ts';
import type { DemoAccount } from './demo-accounts.tsx';
import { loginErrorText } from './login-error.ts';
import { SingleSignOnButton } from './single-sign-on.tsx';

// Only demo servers show the demo accounts, and only once the server has said so: their code stays out of the page.
const DemoAccounts = lazy(() => import('./demo-accounts.tsx').then((module) => ({ default: module.DemoAccounts })));

export function LoginPage({ redirectTo, handoverCode }: { redirectTo: string; handoverCode?: string }) {
  const [settings] = useSettings();
  const { signIn, signInWithCode } = useSession();
  const navigate = useNavigate();
  const versionQuery = useQuery(systemQueries.version(settings.baseUrl));
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const submitRef = useRef<HTMLButtonElement>(null);

  const mutation = useMutation({
    mutationFn: () =>
      signIn(
        { UserName: userName.trim(), Password: password },
        resolveApiVersion(settings.apiVersion, versionQuery.data),
      ),
    onSuccess: () => navigate({ href: redirectTo, replace: true }),
  });

  // Back from single sign-on: the one-time code becomes the session, and leaves the address bar at once.
  const handover = useMutation({
    mutationFn: (code: string) => signInWithCode(code, resolveApiVersion(settings.apiVersion, versionQuery.data)),
    onSuccess: () => navigate({ href: redirectTo, replace: true }),
    onError: () => navigate({ to: '/login', search: { redirect: redirectTo }, replace: true }),
  });
  const exchanged = useRef(false);
  useEffect(() => {
    if (!handoverCode || exchanged.current) return;
    exchanged.current = true;
    handover.mutate(handoverCode);
  }, [handoverCode, handover]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!userName.trim() || !password) return;
    mutation.mutate();
  }

  function pick(account: DemoAccount) {
    setUserName(account.userName);
    setPassword(account.password);
    mutation.reset();
    submitRef.current?.focus();
  }

  const error = mutation.isError
    ? loginErrorText(mutation.error)
    : handover.isError
      ? loginErrorText(handover.error)
      : null;

  return (
    <Box mih="100vh" bg="var(--app-main-bg)" component="main">
      {/* Top-aligned, not centred: the demo accounts arrive after the form, and a centred column would move the
          form up when they do. */}
      <Box p="md" pt={{ base: 'md', sm: '8vh' }}>
        <Stack w="100%" maw={460} gap="lg" mx="auto">
          <Center>
            <BrandMark size="lg" />
          </Center>
          <Paper p="xl" radius="lg" shadow="md">
            <Title order={1} fz={22} mb={4}>
              Sign in
            </Title>
            <Text size="sm" c="dimmed" mb="lg">
              Review device requests, manage push users and confirm instructions.
            </Text>
            <form onSubmit={submit}>
              <Stack gap="md">
                <TextInput
                  label="User name"
                  placeholder="DOMAIN\user"
                  autoComplete="username"
                  value={userName}
                  onChange={(event) => setUserName(event.currentTarget.value)}
                  required
                  data-autofocus
                  autoFocus
                />
                <PasswordInput
                  label="Password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                  required
                />
                {error && (
                  <Alert color="red" icon={<IconAlertTriangle />} title={error.title} role="alert">
                    {error.message}
                  </Alert>
                )}
                <Button
                  ref={submitRef}
                  type="submit"
                  fullWidth
                  size="md"
                  leftSection={<IconLogin size={18} />}
                  loading={mutation.isPending}
                >
                  Sign in
                </Button>
              </Stack>
            </form>
            {handover.isPending && (
              <Text size="sm" mt="md" role="status">
                Signing you in with single sign-on…
              </Text>
            )}
            <SingleSignOnButton baseUrl={settings.baseUrl} redirectTo={redirectTo} />
          </Paper>
          {versionQuery.data?.Demo && (
            <Suspense fallback={null}>
              <DemoAccounts onPick={pick} />
            </Suspense>
          )}
          <Group justify="center" gap={6}>
            <IconServer size={14} color="var(--mantine-color-dimmed)" aria-hidden />
            <Text size="xs" c="dimmed">
              {settings.baseUrl}
              {versionQuery.data ? ` · API ${resolveApiVersion(settings.apiVersion, versionQuery.data)}` : ''}
              {versionQuery.isError ? ' · not answering' : ''}
            </Text>
            <RouterAnchor to="/settings" size="xs">
              Change
            </RouterAnchor>
          </Group>
        </Stack>
      </Box>
    </Box>
  );
}
