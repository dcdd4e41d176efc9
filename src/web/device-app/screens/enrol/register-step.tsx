import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconDeviceMobilePlus, IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import {
  ENROLLMENT_CODE_LIFETIME_MINUTES,
  type LoginResult,
  REQUEST_FIELD_MAX,
} from '../../../../shared/contract/index.ts';
import { isApiError } from '../../../api/core/api-error.ts';
import { describeError } from '../../../api/core/describe-error.ts';
import { type DeviceDescription, describeThisDevice } from '../../../lib/devices/device-description.ts';
import { TOUCH_TARGET } from '../../../lib/use-phone.ts';
import { useEnrollDevice } from '../../connection/device-queries.ts';
import { ScreenTitle } from '../device-shell.tsx';

const FIELDS: { name: keyof DeviceDescription; label: string; placeholder: string; required?: boolean }[] = [
  { name: 'DeviceType', label: 'Device type', placeholder: 'e.g. iOS or Android', required: true },
  { name: 'Manufacturer', label: 'Manufacturer', placeholder: 'e.g. Apple' },
  { name: 'Model', label: 'Model', placeholder: 'e.g. iPhone 16' },
  { name: 'OsVersion', label: 'OS version', placeholder: 'e.g. 18.1' },
];

const EMPTY: DeviceDescription = { DeviceType: '', Manufacturer: '', Model: '', OsVersion: '' };

export type RegisterStepProps =
  | {
      /** From an enrolment link: no password needed. */
      enrollmentCode: string;
      onEnrolled: () => void;
      onCodeRefused: () => void;
      signIn?: never;
      onSignInEnded?: never;
      onCancel?: never;
    }
  | {
      /** From the sign-in step: its session makes the one enrolment call, then ends. */
      signIn: LoginResult;
      onEnrolled: () => void;
      onSignInEnded: () => void;
      onCancel: () => void;
      enrollmentCode?: never;
      onCodeRefused?: never;
    };

/** "Register this device": what the browser tells about the device, editable, sent with the enrolment. */
export function RegisterStep(props: RegisterStepProps) {
  const enroll = useEnrollDevice({ onEnrolled: props.onEnrolled });
  const [values, setValues] = useState<DeviceDescription>(EMPTY);
  const [edited, setEdited] = useState(false);

  useEffect(() => {
    let current = true;
    describeThisDevice()
      .then((description) => {
        // The person may have typed already: their words win in the fields they typed, the browser's fill the rest.
        if (!current) return;
        setValues((old) => {
          const merged = { ...description };
          for (const [name, value] of Object.entries(old) as [keyof DeviceDescription, string][]) {
            if (value) merged[name] = value;
          }
          return merged;
        });
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    enroll.mutate({
      enrollment: {
        DeviceType: values.DeviceType.trim(),
        Manufacturer: values.Manufacturer.trim(),
        Model: values.Model.trim(),
        OsVersion: values.OsVersion.trim(),
        ...(props.enrollmentCode ? { EnrollmentCode: props.enrollmentCode } : {}),
      },
      signInToken: props.signIn?.Token ?? null,
    });
  }

  const error = enroll.error;
  const codeRefused = isApiError(error) && error.kind === 'enrollment-code-invalid';
  const signInEnded = !props.enrollmentCode && isApiError(error) && error.kind === 'unauthenticated';
  const fieldError = (name: string) =>
    isApiError(error) ? error.errors.find((issue) => issue.path === name)?.message : undefined;
  const fieldErrors = FIELDS.some((field) => fieldError(field.name));

  return (
    <>
      <ScreenTitle>Register this device</ScreenTitle>
      <Text mb="lg">
        {props.signIn
          ? `Signed in as ${props.signIn.UserName}. `
          : 'You opened a link from the dashboard, so no password is needed. '}
        Check what this phone says about itself, then register it: an administrator approves it before codes come here.
      </Text>
      {codeRefused ? (
        <Alert color="red" icon={<IconInfoCircle />} title="This link no longer works" role="alert">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              Each link works once and for {ENROLLMENT_CODE_LIFETIME_MINUTES} minutes. Choose “Add a device” in the
              dashboard again for a new one, or sign in here instead.
            </Text>
            <Button variant="default" onClick={() => props.onCodeRefused?.()}>
              Sign in instead
            </Button>
          </Stack>
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Register this device">
          <Stack gap="md">
            {FIELDS.map((field) => (
              <TextInput
                key={field.name}
                label={field.label}
                placeholder={field.placeholder}
                required={field.required}
                size="md"
                maxLength={REQUEST_FIELD_MAX[field.name]}
                value={values[field.name]}
                error={fieldError(field.name)}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setEdited(true);
                  setValues((old) => ({ ...old, [field.name]: value }));
                }}
              />
            ))}
            {!edited && (
              <Text size="xs" c="dimmed">
                Filled in from this browser; change anything that is not right.
              </Text>
            )}
            {error && !fieldErrors && (
              <Alert
                color="red"
                icon={<IconInfoCircle />}
                title={signInEnded ? 'Your sign-in ended' : describeError(error).title}
                role="alert"
              >
                <Stack gap="sm" align="flex-start">
                  <Text size="sm">
                    {signInEnded ? 'Sign in again to register this phone.' : describeError(error).message}
                  </Text>
                  {signInEnded && props.signIn && (
                    <Button variant="default" onClick={props.onSignInEnded}>
                      Sign in again
                    </Button>
                  )}
                </Stack>
              </Alert>
            )}
            <Group gap="sm" grow>
              {props.signIn && (
                <Button variant="default" h={TOUCH_TARGET} onClick={props.onCancel}>
                  Cancel
                </Button>
              )}
              <Button
                type="submit"
                h={TOUCH_TARGET}
                leftSection={<IconDeviceMobilePlus size={18} />}
                loading={enroll.isPending}
                disabled={!values.DeviceType.trim()}
              >
                Register
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </>
  );
}
