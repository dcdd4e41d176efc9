import { Alert, Text } from '@mantine/core';
import { IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import {
  endpoints,
  type InstructionKind,
  TEMPORARY_CODE_DIGITS,
  tokenEndpointFor,
  unavailableReason,
} from '../../../shared/contract/index.ts';
import { useSubmitToken } from '../../api/queries/mutations.ts';
import { useSession } from '../../session/session-context.tsx';
import { activeApiVersion } from '../../settings/resolve-version.ts';
import { READABLE_TITLE } from '../../ui/text/readable-title.ts';
import { TOKEN_LENGTH, TokenFields } from './token-fields.tsx';
import { tokenErrorMessage } from './token-messages.ts';

export interface TokenFormProps {
  /** Prefilled from the URL (`?kind=&id=`); the token itself is always typed or pasted. */
  initialKind?: InstructionKind | undefined;
  initialId?: number | undefined;
  /** Told when the person picks the other kind (the page's "Send me a code" follows it). */
  onKindChange?: (kind: InstructionKind) => void;
  /** Told when a token authenticated its instruction (the page marks the sent code used). */
  onAuthenticated?: (kind: InstructionKind, id: number) => void;
}

export function TokenForm({ initialKind, initialId, onKindChange, onAuthenticated }: TokenFormProps = {}) {
  const { session } = useSession();
  const version = activeApiVersion(session);
  const scheduledMissing = unavailableReason(endpoints.submitScheduledInstructionToken, version);
  const usesObsolete = tokenEndpointFor('instruction', version) === endpoints.submitObsoleteToken;

  const [kind, setKind] = useState<InstructionKind>(
    initialKind === 'scheduled' && !scheduledMissing ? 'scheduled' : 'instruction',
  );
  const [idText, setIdText] = useState(initialId ? String(initialId) : '');
  const [token, setToken] = useState('');
  const [touched, setTouched] = useState(false);
  const mutation = useSubmitToken();

  const id = Number(idText);
  const idError = !/^\d{1,15}$/.test(idText) || id < 1 ? 'Enter the instruction Id, a whole number' : null;
  // A pushed code, or a temporary code from the helpdesk in its place.
  const tokenError =
    token.length !== TOKEN_LENGTH && token.length !== TEMPORARY_CODE_DIGITS
      ? `Enter all ${TOKEN_LENGTH} digits of the token (${TEMPORARY_CODE_DIGITS} for a temporary code)`
      : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (idError || tokenError) return;
    mutation.mutate(
      { kind, id, token },
      {
        // The field empties for the next token without calling the empty field an error.
        onSuccess: () => {
          setToken('');
          setTouched(false);
          onAuthenticated?.(kind, id);
        },
      },
    );
  }

  const failure = mutation.isError
    ? tokenErrorMessage(mutation.error, mutation.variables.kind, mutation.variables.id)
    : null;

  return (
    <form onSubmit={submit} noValidate>
      <TokenFields
        kind={kind}
        onKindChange={(value) => {
          setKind(value);
          onKindChange?.(value);
          mutation.reset();
        }}
        scheduledUnavailable={
          scheduledMissing && `Scheduled instructions: ${scheduledMissing}; you are using API ${version}.`
        }
        idText={idText}
        onIdTextChange={(text) => setIdText(text.replace(/\D/g, ''))}
        idError={touched ? idError : null}
        token={token}
        onTokenChange={(text) => setToken(text.replace(/\D/g, '').slice(0, TEMPORARY_CODE_DIGITS))}
        tokenError={touched ? tokenError : null}
        autoFocusToken={initialId !== undefined}
        pending={mutation.isPending}
        outcome={
          <>
            {failure && (
              <Alert color={failure.color} icon={<IconInfoCircle />} title={failure.title} role="alert">
                {failure.message}
              </Alert>
            )}
            {mutation.isSuccess && (
              <Alert
                color="green"
                icon={<IconCircleCheck />}
                title="Authenticated"
                role="status"
                styles={READABLE_TITLE}
              >
                {mutation.variables.kind === 'scheduled' ? 'Scheduled instruction' : 'Instruction'} {mutation.data.Id}{' '}
                is authenticated and can run.
              </Alert>
            )}
          </>
        }
        note={
          usesObsolete && (
            <Text size="xs" c="dimmed">
              API {version}: sent through the original token endpoint (obsolete since{' '}
              {endpoints.submitObsoleteToken.obsolete.since}).
            </Text>
          )
        }
      />
    </form>
  );
}
