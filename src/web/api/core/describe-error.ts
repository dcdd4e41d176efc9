import { type ApiError, isApiError } from './api-error.ts';

export interface ErrorText {
  title: string;
  message: string;
}

/** Words for a person, by kind; the server's own detail is kept where it says more. */
export function describeError(error: unknown): ErrorText {
  if (!isApiError(error)) {
    return {
      title: 'Something went wrong',
      message: error instanceof Error ? error.message : 'An unexpected error occurred.',
    };
  }
  const detail = error.detail;
  switch (error.kind) {
    case 'network':
      return { title: 'Cannot reach the server', message: detail ?? 'Check your connection and try again.' };
    case 'unauthenticated':
      return { title: 'Signed out', message: 'Your session has ended. Sign in again.' };
    case 'forbidden':
      return { title: 'Not allowed', message: detail ?? 'Your account lacks the permission this needs.' };
    case 'not-found':
      return { title: 'Not found', message: detail ?? 'It does not exist, or no longer exists.' };
    case 'too-many-requests':
      return {
        title: 'Too many attempts',
        message:
          error.retryAfterSeconds !== undefined
            ? `Wait ${error.retryAfterSeconds} seconds, then try again.`
            : 'Wait a moment, then try again.',
      };
    case 'unavailable-in-version':
      return { title: 'Not available in this API version', message: detail ?? error.title };
    case 'invalid-response':
      return { title: 'Unexpected answer from the server', message: detail ?? error.title };
    case 'internal':
      return { title: 'The server had a problem', message: detail ?? 'Try again in a moment.' };
    default:
      return { title: error.title, message: detail ?? validationText(error) ?? `The server answered ${error.status}.` };
  }
}

function validationText(error: ApiError): string | undefined {
  if (error.errors.length === 0) return undefined;
  return error.errors.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
}
