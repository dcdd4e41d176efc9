import { type FieldWords, serverFieldError } from '../lib/field-errors.ts';
import { isApiError } from './core/api-error.ts';

/** A field's error from a failed call's validation problem, in the form's words (undefined when it has none). */
export function problemFieldError<Field extends string>(
  error: unknown,
  field: Field,
  words: FieldWords<Field>,
): string | undefined {
  return isApiError(error) ? serverFieldError(error.errors, field, words) : undefined;
}
