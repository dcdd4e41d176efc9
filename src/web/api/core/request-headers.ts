import {
  API_VERSION_HEADER,
  type ApiVersion,
  BACKGROUND_REQUEST_HEADER,
  CONSUMER_HEADER,
  DEVICE_AUTHORIZATION_SCHEME,
  TOKEN_HEADER,
} from '../../../shared/contract/index.ts';

/** What every request of the dashboard and the device app says of itself. */
export interface RequestEnvelope {
  accept: string;
  version: ApiVersion;
  /** The calling application's name (X-Tachyon-Consumer). */
  consumer: string;
  /** A person's session token, or an enrolled device's credential; none for an anonymous call. */
  credential?: { session: string } | { device: string } | null;
  /** Not the person's doing (polling, a stream): served without extending the session's idle deadline. */
  background?: boolean;
}

/** The one place a request's headers are built: the client's calls and both live streams. */
export function requestHeaders({ accept, version, consumer, credential, background }: RequestEnvelope) {
  const headers: Record<string, string> = {
    Accept: accept,
    [API_VERSION_HEADER]: version,
    [CONSUMER_HEADER]: consumer,
  };
  if (credential && 'session' in credential) {
    // Both token headers: ours reads either, the real platform reads X-Tachyon-Authenticate (SPEC §3).
    headers.Authorization = `Bearer ${credential.session}`;
    headers[TOKEN_HEADER] = credential.session;
  } else if (credential && 'device' in credential) {
    headers.Authorization = `${DEVICE_AUTHORIZATION_SCHEME} ${credential.device}`;
  }
  if (background) headers[BACKGROUND_REQUEST_HEADER] = '1';
  return headers;
}
