import type { z } from 'zod/mini';

/** How a form names its fields to people: the label each field shows, and what its expected form looks like. */
export interface FieldWords<Field extends string> {
  labels: Record<Field, string>;
  /** Said when a field's text has the wrong shape (a pattern or a format), e.g. "look like DOMAIN\user". */
  shapes?: Partial<Record<Field, string>>;
}

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

interface IssueLike {
  code: string;
  path: PropertyKey[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
}

function unit(count: number, origin: string | undefined): string {
  if (origin === 'array' || origin === 'set') return count === 1 ? 'item' : 'items';
  return count === 1 ? 'character' : 'characters';
}

/** One issue in words, with the field's label: never the API's field name or the schema's own message. */
export function issueText(issue: IssueLike, label: string, shape?: string): string {
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum ?? 1);
      return min <= 1
        ? `Enter the ${label.toLowerCase()}`
        : `${label} needs at least ${min} ${unit(min, issue.origin)}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum ?? 0);
      return `${label} can be at most ${max} ${unit(max, issue.origin)}`;
    }
    case 'invalid_type':
      return `Enter the ${label.toLowerCase()}`;
    case 'invalid_format':
      return shape ? `${label} must ${shape}` : `${label} is not in the expected form`;
    default:
      return shape ? `${label} must ${shape}` : `${label} is not accepted: check it and try again`;
  }
}

/**
 * Checks a form's body with the contract's own schema, so the form says what is wrong before the service is asked,
 * in words next to each field. The first issue of each field wins.
 */
export function checkFields<Field extends string>(
  schema: z.ZodMiniType,
  body: unknown,
  words: FieldWords<Field>,
): FieldErrors<Field> {
  const result = schema.safeParse(body);
  if (result.success) return {};
  const errors: FieldErrors<Field> = {};
  for (const issue of result.error.issues as IssueLike[]) {
    const field = String(issue.path[0] ?? '') as Field;
    if (!(field in words.labels) || errors[field]) continue;
    errors[field] = issueText(issue, words.labels[field], words.shapes?.[field]);
  }
  return errors;
}

/**
 * A field's error from the service's validation problem (`errors[].path`), in the form's words. The service checks
 * with the same schema, so its message is only kept when it is already plain words; the API field name in it becomes
 * the label.
 */
export function serverFieldError<Field extends string>(
  errors: readonly { path: string; message: string }[],
  field: Field,
  words: FieldWords<Field>,
): string | undefined {
  const issue = errors.find((item) => item.path === field || item.path.startsWith(`${field}.`));
  if (!issue) return undefined;
  const label = words.labels[field];
  // Schema defaults ("Too big: expected string to have <=256 characters", "Invalid input") are no one's words.
  if (/^(too big|too small|invalid|expected)/i.test(issue.message))
    return issueText({ code: 'custom', path: [field] }, label, words.shapes?.[field]);
  const named = issue.message.replaceAll(field, label);
  return /^must\b/.test(named) ? `${label} ${named}` : named;
}
