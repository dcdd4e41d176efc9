import { z } from 'zod/mini';
import { deferred } from './deferred.ts';

/*
 * Single sign-on with an OpenID Connect provider. The browser goes to OIDC_START_PATH (a redirect to the provider)
 * and comes back to OIDC_CALLBACK_PATH (registered at the provider as PUBLIC_URL/api + that path), which sends it to
 * the sign-in page with a one-time code; the page exchanges the code for its session (`SingleSignOnExchange`).
 */

/** Under API_PREFIX: the sign-in page sends the browser here, with `?redirect=/the/page/wanted`. */
export const OIDC_START_PATH = '/Consumer/Authentication/Oidc/Start';
/** Under API_PREFIX: the redirect URI registered at the provider. */
export const OIDC_CALLBACK_PATH = '/Consumer/Authentication/Oidc/Callback';
/** The sign-in page's search parameter holding the one-time code. */
export const OIDC_HANDOVER_PARAM = 'sso';

/** Whether the sign-in page offers single sign-on, and the name its button gives the provider. */
export const SingleSignOn = deferred(() =>
  z.object({
    Enabled: z.boolean(),
    /** OIDC_NAME ("Sign in with NAME"); null when single sign-on is off. */
    Name: z.nullable(z.string()),
  }),
);
export type SingleSignOn = z.infer<typeof SingleSignOn>;

/** The one-time code the callback gave the sign-in page. */
export const SingleSignOnExchange = deferred(() =>
  z.object({ Code: z.string().check(z.minLength(1), z.maxLength(200)) }),
);
export type SingleSignOnExchange = z.infer<typeof SingleSignOnExchange>;

/** The session ended here; where to send the browser to end it at the provider too (null: nowhere). */
export const SingleSignOut = deferred(() => z.object({ EndSessionUrl: z.nullable(z.string()) }));
export type SingleSignOut = z.infer<typeof SingleSignOut>;

/**
 * Why a single sign-on did not sign the person in (the audit stream's `event.reason`, and the sign-in page's
 * OIDC_REFUSAL_PARAM), and what the page tells them. Only these fixed words are shown: nothing the provider or the
 * address bar says reaches the page (the specifics are in the audit line's `details.message`).
 */
export const SINGLE_SIGN_ON_REFUSALS = {
  'oidc-state-mismatch': {
    title: 'Sign-in not recognised',
    message:
      'This sign-in answer does not belong to a sign-in started in this browser: it is old, was already used, or ' +
      'comes from elsewhere. Start again.',
  },
  'oidc-provider-error': {
    title: 'The identity provider did not sign you in',
    message: 'The identity provider answered with an error (for example, the sign-in was cancelled there).',
  },
  'oidc-code-invalid': {
    title: 'Sign-in code refused',
    message: 'The identity provider refused the sign-in code: it was already used, or it expired.',
  },
  'oidc-token-invalid': {
    title: 'Sign-in answer not trusted',
    message:
      'The identity provider’s answer failed its checks (signature, issuer, audience, expiry or nonce), so it was ' +
      'not trusted. If this happens again, tell your administrator.',
  },
  'oidc-provider-unavailable': {
    title: 'Identity provider not answering',
    message: 'The identity provider did not answer in time. Nothing was changed: try again in a few minutes.',
  },
  'oidc-no-username': {
    title: 'No user name from the identity provider',
    message:
      'The identity provider did not say who you are (its ID token has no user name claim). An administrator of ' +
      'the provider must send it.',
  },
  'oidc-groups-invalid': {
    title: 'Groups not readable',
    message:
      'The identity provider sent your groups in a form that cannot be read, so the permissions they give are ' +
      'unknown. An administrator of the provider must send the groups as a list.',
  },
  'oidc-no-group': {
    title: 'No access to this dashboard',
    message:
      'You are in none of the groups that give access to this dashboard. Ask your administrator to add you to ' +
      'one at the identity provider.',
  },
  'oidc-local-name': {
    title: 'Account signs in with a password',
    message:
      'Your name is an account of this service that signs in with its own password, so single sign-on cannot ' +
      'sign in as it. Sign in with that account’s password, or ask an administrator.',
  },
  'oidc-subject-mismatch': {
    title: 'Name belongs to someone else',
    message:
      'The identity provider calls you by a name that is already another person’s account here (single sign-on ' +
      'bound it to them), so you cannot sign in as it. Ask your administrator.',
  },
  'oidc-disabled': {
    title: 'Account disabled',
    message: 'Your account is disabled here. An account administrator can enable it again.',
  },
  'oidc-off': {
    title: 'Single sign-on is off',
    message: 'This service has no single sign-on configured. Sign in with your user name and password.',
  },
} as const satisfies Record<string, { title: string; message: string }>;

/** A refusal's reason code. */
export type SingleSignOnRefusal = keyof typeof SINGLE_SIGN_ON_REFUSALS;
export const SINGLE_SIGN_ON_REFUSAL_CODES = Object.keys(SINGLE_SIGN_ON_REFUSALS) as SingleSignOnRefusal[];

/** The sign-in page's search parameter naming why single sign-on was refused. */
export const OIDC_REFUSAL_PARAM = 'sso_error';
