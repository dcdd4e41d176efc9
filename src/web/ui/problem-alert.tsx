import { Alert } from '@mantine/core';
import { describeError } from '../api/core/describe-error.ts';

/** A failed call's problem, said in a dialog; nothing when there is none. */
export function ProblemAlert({ error, mb }: { error: unknown; mb?: string }) {
  if (!error) return null;
  const { title, message } = describeError(error);
  return (
    <Alert color="red" title={title} mb={mb}>
      {message}
    </Alert>
  );
}
