import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle, IconLogin2 } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import type { LoginResult } from '../../../../shared/contract/index.ts';
import { isApiError } from '../../../api/core/api-error.ts';
import { describeError } from '../../../api/core/describe-error.ts';
import { TOUCH_TARGET } from '../../../lib/use-phone.ts';
import { useDeviceSignIn } from '../../connection/device-queries.ts';
import { ScreenTitle } from '../device-shell.tsx';

function signInError(error: unknown) {
  if (isApiError(error) && (error.kind === 'invalid-credentials' || error.kind === 'unauthenticated')) {
    return { title: 'Sign-in failed', message: 'The user name or password is not right. Check both and try again.' };
  }
  return describeError(error);
}

/** Opened without an enrolment link: the person proves who they are once, to register this device as theirs. */
export function SignInStep({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const signIn = useDeviceSignIn();
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    signIn.mutate({ UserName: userName.trim(), Password: password }, { onSuccess: onSignedIn });
  }

  const failure = signIn.isError ? signInError(signIn.error) : null;
  return (
    <>
      <ScreenTitle>Register this phone</ScreenTitle>
      <Text mb="lg">
        Sign in with your work account to register this phone for two-factor sign-in codes. The password is used once
        and not kept here.
      </Text>
      <form onSubmit={submit} noValidate aria-label="Sign in">
        <Stack gap="md">
          <TextInput
            label="User name"
            description="DOMAIN\user, as you sign in at work"
            autoComplete="username"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            required
            size="md"
            value={userName}
            onChange={(event) => setUserName(event.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            size="md"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          {failure && (
            <Alert color="red" icon={<IconInfoCircle />} title={failure.title} role="alert">
              {failure.message}
            </Alert>
          )}
          <Button
            type="submit"
            h={TOUCH_TARGET}
            fullWidth
            leftSection={<IconLogin2 size={18} />}
            loading={signIn.isPending}
            disabled={!userName.trim() || !password}
          >
            Sign in
          </Button>
        </Stack>
      </form>
      <Text size="sm" c="dimmed" mt="lg">
        At your desk? Choose “Add a device” in the dashboard’s account menu and point this phone’s camera at the code:
        no password needed here.
      </Text>
    </>
  );
}
