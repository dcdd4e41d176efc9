import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/core/api-error.ts';
import { tokenErrorMessage } from './token-messages.ts';

const error = (kind: ApiError['kind'], status: number) => new ApiError({ kind, status, title: kind });

describe('token answers', () => {
  it('gives each answer of the service its own message', () => {
    const kinds = [
      ['invalid-token', 422],
      ['token-expired', 422],
      ['instruction-locked', 423],
      ['already-authenticated', 409],
      ['not-creator', 403],
      ['not-found', 404],
    ] as const;
    const titles = kinds.map(([kind, status]) => tokenErrorMessage(error(kind, status), 'instruction', 42).title);
    expect(new Set(titles).size).toBe(kinds.length);
    expect(tokenErrorMessage(error('not-creator', 403), 'scheduled', 42).message).toContain('scheduled instruction 42');
  });

  it('falls back to the general wording for anything else', () => {
    expect(tokenErrorMessage(error('network', 0), 'instruction', 1).title).toBe('Cannot reach the server');
  });
});
