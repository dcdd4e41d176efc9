import { z } from 'zod/mini';

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
export const SingleSignOn = z.object({
  Enabled: z.boolean(),
  /** OIDC_NAME ("Sign in with NAME"); null when single sign-on is off. */
  Name: z.nullable(z.string()),
});
export type SingleSignOn = z.infer<typeof SingleSignOn>;

/** The one-time code the callback gave the sign-in page. */
export const SingleSignOnExchange = z.object({ Code: z.string().check(z.minLength(1), z.maxLength(200)) });
export type SingleSignOnExchange = z.infer<typeof SingleSignOnExchange>;

/** The session ended here; where to send the browser to end it at the provider too (null: nowhere). */
export const SingleSignOut = z.object({ EndSessionUrl: z.nullable(z.string()) });
export type SingleSignOut = z.infer<typeof SingleSignOut>;
