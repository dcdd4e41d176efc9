import {
  Alert,
  Box,
  Button,
  Center,
  Divider,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconLogin, IconServer } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { LoginResult, SingleSignOnRefusal } from '../../../shared/contract/index.ts';
import { isApiError } from '../../api/core/api-error.ts';
import { systemQueries } from '../../api/queries/system-queries.ts';
import { checkFields, type FieldErrors } from '../../lib/field-errors.ts';
import { minutesAndSeconds } from '../../lib/time/use-now.ts';
import { useSession } from '../../session/session-context.tsx';
import { resolveApiVersion } from '../../settings/resolve-version.ts';
import { useSettings } from '../../settings/use-settings.ts';
import { BrandMark } from '../../ui/brand-mark.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import type { DemoAccount } from './demo-accounts.tsx';
import { LOGIN_WORDS, loginErrorText, useRetryCountdown } from './login-error.ts';
import { PasskeySignInButton, usePasskeyAutofill } from './passkey-sign-in.tsx';
import { type SecondStepTicket, secondStepOf } from './second-step/second-step-ticket.ts';
import { SingleSignOnButton, SingleSignOnRefused } from './single-sign-on.tsx';

// After the password, not before the form: the second step (its forms, passkey ceremony and help) and the list of
// pages to land on (which brings the API's whole catalogue) are not part of the page a person first sees.
const loadSecondStep = () => import('./second-step/second-step.tsx');
const SecondStep = lazy(() => loadSecondStep().then((module) => ({ default: module.SecondStep })));
const landingPage = async (session: Parameters<typeof import('../../wiring/pages.tsx').landingPage>[0]) =>
  (await import('../../wiring/pages.tsx')).landingPage(session, false);
// Only demo servers show the demo accounts, and only once the server has said so: their code stays out of the page.
const DemoAccounts = lazy(() => import('./demo-accounts.tsx').then((module) => ({ default: module.DemoAccounts })));

/** `redirectTo`: where the person was going; without one, the first page their permissions let them work on. */
export function LoginPage({
  redirectTo,
  handoverCode,
  singleSignOnRefusal,
}: {
  redirectTo: string | undefined;
  handoverCode?: string;
  /** Why single sign-on just refused the person (its reason code). */
  singleSignOnRefusal?: SingleSignOnRefusal;
}) {
  const [settings] = useSettings();
  const { signIn, adopt, signInWithCode } = useSession();
  const navigate = useNavigate();
  const versionQuery = useQuery(systemQueries.version(settings.baseUrl));
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState<FieldErrors<'UserName' | 'Password'>>({});
  const submitRef = useRef<HTMLButtonElement>(null);
  const [secondStep, setSecondStep] = useState<SecondStepTicket | null>(null);
  // Whether the second step follows single sign-on (its session then signs out at the provider too).
  const [afterSingleSignOn, setAfterSingleSignOn] = useState(false);

  const mutation = useMutation({
    mutationFn: () => {
      // Asked for while the password is checked, so a second step shows as soon as it is needed.
      void loadSecondStep();
      return signIn(
        { UserName: userName.trim(), Password: password },
        resolveApiVersion(settings.apiVersion, versionQuery.data),
      );
    },
    onSuccess: async (session) => navigate({ href: redirectTo ?? (await landingPage(session)), replace: true }),
    onError: (failure) => {
      setSecondStep(secondStepOf(failure));
      setAfterSingleSignOn(false);
    },
  });

  /** A passkey or a second step signed in: keep its session and go where the person was going. */
  function signedIn(result: LoginResult) {
    const session = adopt(result, resolveApiVersion(settings.apiVersion, versionQuery.data), {
      singleSignOn: secondStep !== null && afterSingleSignOn,
    });
    void landingPage(session).then((landing) => navigate({ href: redirectTo ?? landing, replace: true }));
  }
  usePasskeyAutofill(secondStep === null, signedIn);

  // Back from single sign-on: the one-time code becomes the session (or the second step, when the provider's MFA
  // did not count), and leaves the address bar at once.
  const handover = useMutation({
    mutationFn: (code: string) => {
      void loadSecondStep();
      return signInWithCode(code, resolveApiVersion(settings.apiVersion, versionQuery.data));
    },
    onSuccess: async (session) => navigate({ href: redirectTo ?? (await landingPage(session)), replace: true }),
    onError: (failure) => {
      const step = secondStepOf(failure);
      setSecondStep(step);
      setAfterSingleSignOn(step !== null);
      void navigate({ to: '/login', search: { redirect: redirectTo }, replace: true });
    },
  });
  const exchanged = useRef(false);
  useEffect(() => {
    if (!handoverCode || exchanged.current) return;
    exchanged.current = true;
    handover.mutate(handoverCode);
  }, [handoverCode, handover]);
  const waitSeconds = useRetryCountdown(mutation.error);

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The contract's own check, in this form's words beside each field (not the browser's bubble). The contract
    // comes with the API client, asked for as the page opened (the version query): by the first submit it is here.
    // Should it fail to load (the server gone), the sign-in goes ahead and says that the server cannot be reached.
    const contract = await import('../../../shared/contract/index.ts').catch(() => null);
    const credentials = { UserName: userName.trim(), Password: password };
    const errors = contract ? checkFields(contract.LoginCredentials, credentials, LOGIN_WORDS) : {};
    setChecked(errors);
    if (Object.keys(errors).length > 0 || waitSeconds > 0) return;
    mutation.mutate();
  }

  function pick(account: DemoAccount) {
    setUserName(account.userName);
    setPassword(account.password);
    setChecked({});
    mutation.reset();
    submitRef.current?.focus();
  }

  const error = secondStep
    ? null
    : mutation.isError
      ? loginErrorText(mutation.error)
      : handover.isError
        ? loginErrorText(handover.error)
        : null;
  const throttled = waitSeconds > 0;

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
            {secondStep ? (
              <Suspense fallback={null}>
                <SecondStep
                  step={secondStep}
                  afterSingleSignOn={afterSingleSignOn}
                  onSignedIn={signedIn}
                  onRestart={() => {
                    setSecondStep(null);
                    setAfterSingleSignOn(false);
                    setPassword('');
                    mutation.reset();
                  }}
                />
              </Suspense>
            ) : (
              <>
                {singleSignOnRefusal && (
                  <SingleSignOnRefused
                    reason={singleSignOnRefusal}
                    baseUrl={settings.baseUrl}
                    redirectTo={redirectTo}
                  />
                )}
                <form onSubmit={submit} noValidate>
                  <Stack gap="md">
                    <TextInput
                      label="User name"
                      placeholder="DOMAIN\user"
                      autoComplete="username webauthn"
                      value={userName}
                      onChange={(event) => {
                        setUserName(event.currentTarget.value);
                        setChecked(({ UserName: _, ...rest }) => rest);
                      }}
                      error={checked.UserName}
                      required
                      data-autofocus
                      autoFocus
                    />
                    <PasswordInput
                      label="Password"
                      autoComplete="current-password"
                      value={password}
                      onChange={(event) => {
                        setPassword(event.currentTarget.value);
                        setChecked(({ Password: _, ...rest }) => rest);
                      }}
                      error={checked.Password}
                      required
                    />
                    {error &&
                      (isApiError(mutation.error) && mutation.error.kind === 'too-many-requests' ? (
                        <Alert color="red" icon={<IconAlertTriangle />} title="Too many attempts" role="alert">
                          {throttled
                            ? `You can try again in ${minutesAndSeconds(waitSeconds)}.`
                            : 'You can try again now.'}
                        </Alert>
                      ) : (
                        <Alert color="red" icon={<IconAlertTriangle />} title={error.title} role="alert">
                          {error.message}
                        </Alert>
                      ))}
                    <Button
                      ref={submitRef}
                      type="submit"
                      fullWidth
                      size="md"
                      leftSection={<IconLogin size={18} />}
                      loading={mutation.isPending}
                      disabled={throttled}
                    >
                      {throttled ? `Sign in (wait ${minutesAndSeconds(waitSeconds)})` : 'Sign in'}
                    </Button>
                  </Stack>
                </form>
                {handover.isPending && (
                  <Text size="sm" mt="md" role="status">
                    Signing you in with single sign-on…
                  </Text>
                )}
                <Divider label="or" labelPosition="center" my="md" />
                <Stack gap="sm">
                  <PasskeySignInButton onSignedIn={signedIn} />
                  <SingleSignOnButton baseUrl={settings.baseUrl} redirectTo={redirectTo} />
                </Stack>
              </>
            )}
          </Paper>
          {versionQuery.data?.Demo && (
            <Suspense fallback={null}>
              <DemoAccounts onPick={pick} />
            </Suspense>
          )}
          {versionQuery.isError && (
            // Which server and API version is under Settings, Advanced; here only when the server does not answer.
            <Group justify="center" gap={6}>
              <IconServer size={14} color="var(--mantine-color-dimmed)" aria-hidden />
              <Text size="xs" c="dimmed">
                {settings.baseUrl} is not answering.
              </Text>
              <RouterAnchor to="/settings" size="xs">
                Server settings
              </RouterAnchor>
            </Group>
          )}
        </Stack>
      </Box>
    </Box>
  );
}
