import type { MantineColor } from '@mantine/core';
import { type InstructionKind, MAX_TOKEN_ATTEMPTS, TOKEN_LIFETIME_MINUTES } from '../../../shared/contract/index.ts';
import { isApiError } from '../../api/core/api-error.ts';
import { describeError } from '../../api/core/describe-error.ts';

export interface TokenMessage {
  color: MantineColor;
  title: string;
  message: string;
}

/** One message per answer the service can give, so the person knows what to do next. */
export function tokenErrorMessage(error: unknown, kind: InstructionKind, id: number): TokenMessage {
  const what = kind === 'scheduled' ? `Scheduled instruction ${id}` : `Instruction ${id}`;
  const whatLower = kind === 'scheduled' ? `scheduled instruction ${id}` : `instruction ${id}`;
  if (isApiError(error)) {
    switch (error.kind) {
      case 'invalid-token':
        return {
          color: 'red',
          title: 'Wrong token',
          message: `That is not the token for ${whatLower}. Check the code on your device and try again; after ${MAX_TOKEN_ATTEMPTS} wrong tokens the instruction is locked.`,
        };
      case 'token-expired':
        return {
          color: 'orange',
          title: 'Token expired',
          message: `The token for ${whatLower} is no longer valid (tokens last ${TOKEN_LIFETIME_MINUTES} minutes). Request a new token and enter that one.`,
        };
      case 'instruction-locked':
        return {
          color: 'red',
          title: 'Locked after too many wrong tokens',
          message: `${what} is locked because of repeated wrong tokens. Request a new token to unlock it.`,
        };
      case 'already-authenticated':
        return {
          color: 'blue',
          title: 'Already authenticated',
          message: `${what} has already been authenticated. There is nothing more to do.`,
        };
      case 'not-creator':
        return {
          color: 'yellow',
          title: 'Not your instruction',
          message: `Only the person who created ${whatLower} can submit its token. Sign in as that person.`,
        };
      case 'not-found':
        return {
          color: 'yellow',
          title: `No such ${kind === 'scheduled' ? 'scheduled instruction' : 'instruction'}`,
          message: `There is no ${whatLower}. Check the Id${kind === 'instruction' ? ', or whether it is a scheduled instruction' : ''}.`,
        };
    }
  }
  const { title, message } = describeError(error);
  return { color: 'red', title, message };
}
