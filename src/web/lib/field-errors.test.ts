import { describe, expect, it } from 'vitest';
import { AccountCreation, LoginCredentials } from '../../shared/contract/index.ts';
import { checkFields, serverFieldError } from './field-errors.ts';

const ACCOUNT_WORDS = {
  labels: { UserName: 'User name', Password: 'Initial password', Email: 'Email' },
  shapes: { UserName: 'look like DOMAIN\\user' },
};

describe('field errors in the form’s words', () => {
  it('says what is wrong with each field by its label, never the API name or the schema message', () => {
    const errors = checkFields(
      AccountCreation,
      { UserName: 'x'.repeat(300), Password: 'short', Email: 'not-an-address' },
      ACCOUNT_WORDS,
    );
    expect(errors.UserName).toBe('User name can be at most 256 characters');
    expect(errors.Password).toMatch(/^Initial password needs at least \d+ characters$/);
    expect(errors.Email).toBe('Email is not in the expected form');
    for (const text of Object.values(errors))
      expect(text).not.toMatch(/UserName|Too big|Invalid input|expected string/);
  });

  it('names the expected shape of a field', () => {
    const errors = checkFields(
      AccountCreation,
      { UserName: 'jo', Password: 'a long enough password here' },
      ACCOUNT_WORDS,
    );
    expect(errors).toEqual({ UserName: 'User name must look like DOMAIN\\user' });
  });

  it('asks for an empty field', () => {
    expect(
      checkFields(
        LoginCredentials,
        { UserName: '  ', Password: '' },
        { labels: { UserName: 'User name', Password: 'Password' } },
      ),
    ).toEqual({
      UserName: 'Enter the user name',
      Password: 'Enter the password',
    });
  });

  it('turns the service’s message into the label’s words', () => {
    const words = { labels: { UserName: 'User name' }, shapes: { UserName: 'look like DOMAIN\\user' } };
    expect(
      serverFieldError([{ path: 'UserName', message: 'UserName must look like DOMAIN\\user' }], 'UserName', words),
    ).toBe('User name must look like DOMAIN\\user');
    expect(
      serverFieldError(
        [{ path: 'UserName', message: 'Too big: expected string to have <=256 characters' }],
        'UserName',
        words,
      ),
    ).toBe('User name must look like DOMAIN\\user');
    expect(serverFieldError([{ path: 'Password', message: 'x' }], 'UserName', words)).toBeUndefined();
  });
});
