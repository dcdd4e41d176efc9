import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** What a test changes in one answer to play an attacker or a broken authenticator. */
export interface AnswerOptions {
  /** The origin the browser says it answered from (default: the authenticator's). */
  origin?: string;
  /** The RP ID the authenticator signs for (default: the options' or the authenticator's). */
  rpId?: string;
  /** The passkey to answer with (default: the first one the options allow, or the first made). */
  credentialId?: string;
  /** The signature counter to report instead of the next one. */
  counter?: number;
}

interface Credential {
  id: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  counter: number;
  userHandle: string;
}

const b64u = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

/**
 * A passkey authenticator in software, for HTTP tests: it makes P-256 passkeys and answers WebAuthn options the way a
 * browser with a platform authenticator would (user present and verified), so the service's real verification
 * (@simplewebauthn/server) judges real signatures. The browser tests use Chromium's virtual authenticator instead.
 */
export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  private readonly origin: string;
  private readonly rpId: string;

  constructor(origin = 'http://localhost:8080') {
    this.origin = origin;
    this.rpId = new URL(origin).hostname;
  }

  /** navigator.credentials.create(): a RegistrationResponseJSON for the options. */
  create(options: Record<string, unknown>, answer: AnswerOptions = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = b64u(randomBytes(32));
    const user = options.user as { id: string };
    const credential: Credential = { id, privateKey, publicKey, counter: 0, userHandle: user.id };
    this.credentials.push(credential);
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))],
    ]);
    const credentialId = Buffer.from(id, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const rpId = answer.rpId ?? ((options.rp as { id?: string }).id || this.rpId);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([0x45]), // user present, user verified, attested credential data
      counterBytes(0),
      Buffer.alloc(16), // AAGUID
      idLength,
      credentialId,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const attestation = new Map<string, string | Map<string, string> | Uint8Array>();
    attestation.set('fmt', 'none');
    attestation.set('attStmt', new Map<string, string>());
    attestation.set('authData', new Uint8Array(authData));
    const attestationObject = isoCBOR.encode(attestation);
    const clientData = { type: 'webauthn.create', challenge: options.challenge, origin: answer.origin ?? this.origin };
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(Buffer.from(JSON.stringify(clientData))),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): an AuthenticationResponseJSON for the options. */
  get(options: Record<string, unknown>, answer: AnswerOptions = {}) {
    const allowed = (options.allowCredentials as { id: string }[] | undefined) ?? [];
    const wanted = answer.credentialId ?? allowed[0]?.id ?? this.credentials[0]?.id;
    const credential = this.credentials.find((c) => c.id === wanted);
    if (!credential) throw new Error('the soft authenticator holds no such passkey');
    credential.counter = answer.counter ?? credential.counter + 1;
    const rpId = answer.rpId ?? ((options.rpId as string | undefined) || this.rpId);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([0x05]), counterBytes(credential.counter)]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: answer.origin ?? this.origin }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
