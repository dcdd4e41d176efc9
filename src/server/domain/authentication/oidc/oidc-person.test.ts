import { describe, expect, it } from 'vitest';
import { loadOidcConfig } from '../../../oidc-config.ts';
import { OidcRefusal } from './identity-provider.ts';
import { mfaCounted, oidcPersonOf } from './oidc-person.ts';

const env = {
  OIDC_ISSUER: 'https://login.acme.example',
  OIDC_CLIENT_ID: 'tachyon',
  OIDC_CLIENT_SECRET: 'secret',
  OIDC_DOMAIN: 'acme',
  OIDC_GROUP_SECURITY_READ: 'helpdesk',
};
const fail = (message: string) => new Error(message);
const config = (extra: NodeJS.ProcessEnv = {}) => {
  const loaded = loadOidcConfig({ ...env, ...extra }, fail);
  if (!loaded) throw new Error('not configured');
  return loaded;
};

describe('whether the provider’s MFA counts', () => {
  it('counts an amr of OIDC_MFA_AMR (by default mfa, hwk, swk, otp), and not a password alone', () => {
    const defaults = config();
    expect(mfaCounted({ sub: 'a', amr: ['pwd', 'mfa'] }, defaults)).toBe(true);
    expect(mfaCounted({ sub: 'a', amr: ['hwk'] }, defaults)).toBe(true);
    expect(mfaCounted({ sub: 'a', amr: ['pwd'] }, defaults)).toBe(false);
    expect(mfaCounted({ sub: 'a' }, defaults)).toBe(false);
    expect(mfaCounted({ sub: 'a', amr: 'mfa' }, defaults)).toBe(false);
    const own = config({ OIDC_MFA_AMR: 'fido' });
    expect(mfaCounted({ sub: 'a', amr: ['mfa'] }, own)).toBe(false);
    expect(mfaCounted({ sub: 'a', amr: ['fido'] }, own)).toBe(true);
  });

  it('counts an acr equal to OIDC_ACR_VALUES only when that is set', () => {
    expect(mfaCounted({ sub: 'a', acr: 'urn:loa:mfa' }, config())).toBe(false);
    const acr = config({ OIDC_ACR_VALUES: 'urn:loa:mfa' });
    expect(mfaCounted({ sub: 'a', acr: 'urn:loa:mfa' }, acr)).toBe(true);
    expect(mfaCounted({ sub: 'a', acr: 'urn:loa:pwd' }, acr)).toBe(false);
  });
});

describe('the person an ID token names', () => {
  it('is DOMAIN\\name with the groups’ permissions', () => {
    const person = oidcPersonOf(
      { sub: 's1', preferred_username: 'jo', email: 'jo@acme.example', groups: ['helpdesk'] },
      config(),
    );
    expect(person).toEqual({
      userName: 'ACME\\jo',
      subject: 's1',
      email: 'jo@acme.example',
      security: ['Read'],
      accounts: [],
      mfaCounted: false,
    });
  });

  it('has Contain on Accounts from OIDC_GROUP_ACCOUNTS_CONTAIN (the helpdesk’s containment), and no more', () => {
    const helpdesk = config({ OIDC_GROUP_ACCOUNTS_CONTAIN: 'containment' });
    const person = oidcPersonOf({ sub: 's1', preferred_username: 'jo', groups: ['helpdesk', 'containment'] }, helpdesk);
    expect(person).toMatchObject({ security: ['Read'], accounts: ['Contain'] });
    const other = oidcPersonOf({ sub: 's2', preferred_username: 'al', groups: ['helpdesk'] }, helpdesk);
    expect(other.accounts).toEqual([]);
    // The group alone is a configuration that gives access: no need for another OIDC_GROUP_* variable.
    const alone = config({ OIDC_GROUP_SECURITY_READ: '', OIDC_GROUP_ACCOUNTS_CONTAIN: 'containment' });
    expect(oidcPersonOf({ sub: 's3', preferred_username: 'bo', groups: ['containment'] }, alone)).toMatchObject({
      security: [],
      accounts: ['Contain'],
    });
  });

  it('reads the claims OIDC_USERNAME_CLAIM and OIDC_GROUPS_CLAIM name', () => {
    const person = oidcPersonOf(
      { sub: 's1', upn: 'jo', roles: ['helpdesk'] },
      config({ OIDC_USERNAME_CLAIM: 'upn', OIDC_GROUPS_CLAIM: 'roles' }),
    );
    expect(person.userName).toBe('ACME\\jo');
  });

  it('refuses a name with a domain separator in it', () => {
    expect(() => oidcPersonOf({ sub: 's1', preferred_username: 'OTHER\\jo', groups: ['helpdesk'] }, config())).toThrow(
      OidcRefusal,
    );
  });
});

describe('OIDC_* settings', () => {
  it('are off without OIDC_ISSUER, and name the variable that is wrong', () => {
    expect(loadOidcConfig({}, fail)).toBeNull();
    expect(() => config({ OIDC_ISSUER: 'http://login.acme.example' })).toThrow(/^OIDC_ISSUER must be an https/);
    expect(() => config({ OIDC_ISSUER: 'not a url' })).toThrow(/^OIDC_ISSUER/);
    expect(() => config({ OIDC_CLIENT_SECRET: '' })).toThrow(/^OIDC_CLIENT_SECRET/);
    expect(() => config({ OIDC_DOMAIN: '' })).toThrow(/^OIDC_DOMAIN/);
    expect(() => config({ OIDC_GROUP_SECURITY_READ: '' })).toThrow(
      /OIDC_GROUP_SECURITY_READ.*OIDC_GROUP_ACCOUNTS_CONTAIN/,
    );
    expect(config({ OIDC_ISSUER: 'http://127.0.0.1:9000' }).issuer).toBe('http://127.0.0.1:9000');
    expect(config().name).toBe('single sign-on');
  });
});
