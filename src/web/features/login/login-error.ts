import { isApiError } from '../../api/api-error.ts';
import { describeError, type ErrorText } from '../../api/describe-error.ts';

export function loginErrorText(error: unknown): ErrorText {
  if (isApiError(error) && (error.kind === 'invalid-credentials' || error.kind === 'unauthenticated')) {
    return { title: 'Sign-in failed', message: 'The user name or password is not right. Check both and try again.' };
  }
  return describeError(error);
}
