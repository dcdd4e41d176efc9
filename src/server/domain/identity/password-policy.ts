import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../shared/contract/index.ts';

/**
 * The common-password list of zxcvbn-ts (a maintained package: ~50,000 passwords seen most in breaches), lower-cased:
 * "Password1234" is as guessable as "password1234". Loaded on first use.
 */
let common: ReadonlySet<string> | null = null;
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set((dictionary['passwords-common'] as string[]).map((password) => password.toLowerCase()));
  return common;
}

/**
 * Why a new password is refused, or null when it is acceptable (OWASP ASVS 5.0 chapter 6): 12 to 128 characters
 * (counted as code points, so an emoji counts once) and not a common password. No composition rules on purpose:
 * they push people to predictable patterns and add no strength.
 */
export function passwordWeakness(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (commonPasswords().has(password.toLowerCase())) return 'is a commonly used password; choose another';
  return null;
}
