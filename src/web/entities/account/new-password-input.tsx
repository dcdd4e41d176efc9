import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../shared/contract/index.ts';

/** A field for a password being set: the policy said once, `hint` adds what happens next. */
export function NewPasswordInput({ hint, ...props }: PasswordInputProps & { hint?: string }) {
  return (
    <PasswordInput
      description={`${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, not a common password.${hint ? ` ${hint}` : ''}`}
      autoComplete="new-password"
      required
      {...props}
    />
  );
}
