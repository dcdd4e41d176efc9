import { isApiError } from '../../../api/core/api-error.ts';

/** What a password step that needs a second step answered (401 second-factor-required). */
export interface SecondStepTicket {
  ticket: string;
  methods: string[];
}

/** The ticket and methods of a second-factor-required problem, or null for any other failure. */
export function secondStepOf(error: unknown): SecondStepTicket | null {
  if (!isApiError(error) || error.kind !== 'second-factor-required') return null;
  const { ticket, methods } = error.problem ?? {};
  return ticket ? { ticket, methods: methods ?? [] } : null;
}
