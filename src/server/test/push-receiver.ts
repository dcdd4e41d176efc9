import { createDecipheriv, createECDH, type ECDH, hkdfSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, type JWTPayload, jwtVerify } from 'jose';
import type { PushSubscriptionKeys } from '../domain/delivery/token-delivery.ts';

/**
 * A stand-in push service on 127.0.0.1 for tests: it checks each push the way a real one would (the VAPID JWT,
 * RFC 8292) and decrypts it as the browser would (RFC 8188 + RFC 8291), with node:crypto and jose rather than the
 * library that encrypted and signed it, so a mistake shared by both sides cannot pass unnoticed.
 */

/** How the receiver answers one push: a status (with headers), or never. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export type VapidCheck = { ok: true; claims: JWTPayload; key: string } | { ok: false; reason: string };

export interface ReceivedPush {
  endpoint: string;
  /** Date.now() when the body had arrived. */
  receivedAt: number;
  headers: http.IncomingHttpHeaders;
  vapid: VapidCheck;
  /** The decrypted body as UTF-8, or null when it could not be decrypted (see decryptError). */
  payload: string | null;
  decryptError: string | null;
  answer: ReceiverAnswer;
}

interface SubscriptionSecrets {
  ecdh: ECDH;
  auth: Buffer;
  answers: ReceiverAnswer[];
}

export interface PushReceiver {
  /** `http://127.0.0.1:<port>`: the JWT's expected audience. */
  origin: string;
  /** A new subscription whose private key only the receiver holds, as a browser would make it. */
  subscribe(): PushSubscriptionKeys;
  /** Queues answers for the next pushes to this endpoint; 201 once the queue is empty. */
  answer(endpoint: string, ...answers: ReceiverAnswer[]): void;
  pushes: ReceivedPush[];
  pushesTo(endpoint: string): ReceivedPush[];
  close(): Promise<void>;
}

const textBytes = (text: string) => Buffer.from(text, 'latin1');

/** A P-256 public key as a JWK, from its 65-byte uncompressed point (0x04 || x || y). */
function jwkFromPoint(point: Buffer) {
  if (point.length !== 65 || point[0] !== 0x04) throw new Error('not an uncompressed P-256 point');
  return {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
  };
}

/** RFC 8292 §3: `Authorization: vapid t=<JWT>, k=<public key>`, the JWT ES256 with aud, exp (≤ 24 h) and sub. */
export async function verifyVapid(
  authorization: string | undefined,
  expected: { publicKey: string; audience: string; subject: string },
): Promise<VapidCheck> {
  const match = /^vapid\s+(.+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return { ok: false, reason: `not a vapid Authorization: ${authorization}` };
  const params = new Map<string, string>();
  for (const part of match[1].split(',')) {
    const at = part.indexOf('=');
    if (at > 0) params.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  const token = params.get('t');
  const key = params.get('k');
  if (!token || !key) return { ok: false, reason: 'vapid Authorization without t= or k=' };
  if (key !== expected.publicKey) return { ok: false, reason: 'k= is not the published VAPID key' };
  try {
    // The published key, not the one the request carries: a push service knows which key the subscription used.
    const publicKey = await importJWK(jwkFromPoint(Buffer.from(expected.publicKey, 'base64url')), 'ES256');
    const { payload } = await jwtVerify(token, publicKey, {
      algorithms: ['ES256'],
      audience: expected.audience,
      subject: expected.subject,
      requiredClaims: ['aud', 'exp', 'sub'],
    });
    const now = Math.floor(Date.now() / 1000);
    if (payload.exp === undefined || payload.exp > now + 24 * 60 * 60) {
      return { ok: false, reason: `exp more than 24 h away: ${payload.exp}` };
    }
    return { ok: true, claims: payload, key };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * RFC 8188 aes128gcm with the keys of RFC 8291 §3.4: the header (salt, record size, the sender's public key as the
 * key id), then records of `rs` bytes, each AES-128-GCM with the nonce XORed with its sequence number and padded
 * with a delimiter (0x02 on the last record, 0x01 before) and zeros.
 */
export function decryptAes128gcm(body: Buffer, receiver: { ecdh: ECDH; auth: Buffer }): Buffer {
  if (body.length < 21) throw new Error('shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  if (idLength !== 65) throw new Error(`key id of ${idLength} bytes; RFC 8291 puts the 65-byte sender key there`);
  const senderPublic = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  if (recordSize < 18) throw new Error(`record size ${recordSize} is too small`);

  const receiverPublic = receiver.ecdh.getPublicKey();
  const ecdhSecret = receiver.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([textBytes('WebPush: info\0'), receiverPublic, senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, receiver.auth, keyInfo, 32));
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, textBytes('Content-Encoding: aes128gcm\0'), 16));
  const nonceBase = Buffer.from(hkdfSync('sha256', ikm, salt, textBytes('Content-Encoding: nonce\0'), 12));

  const plain: Buffer[] = [];
  let sequence = 0;
  for (let offset = 0; offset < records.length; offset += recordSize, sequence += 1) {
    const record = records.subarray(offset, offset + recordSize);
    const last = offset + recordSize >= records.length;
    if (record.length < 17) throw new Error('a record shorter than its tag and delimiter');
    const nonce = Buffer.from(nonceBase);
    // The sequence number is XORed into the nonce's low end; a push has one record, so 32 bits are plenty.
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ sequence) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', key, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end -= 1;
    const delimiter = padded[end];
    if (delimiter !== (last ? 2 : 1)) throw new Error(`record ${sequence}: padding delimiter ${delimiter}`);
    plain.push(padded.subarray(0, end));
  }
  if (plain.length === 0) throw new Error('no record');
  return Buffer.concat(plain);
}

export async function startPushReceiver(vapid: { publicKey: string; subject: string }): Promise<PushReceiver> {
  const subscriptions = new Map<string, SubscriptionSecrets>();
  const pushes: ReceivedPush[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const endpoint = `${origin}${request.url ?? ''}`;
        const secrets = subscriptions.get(endpoint);
        const body = Buffer.concat(chunks);
        let payload: string | null = null;
        let decryptError: string | null = null;
        if (!secrets) decryptError = 'no such subscription';
        else if (request.headers['content-encoding'] !== 'aes128gcm') decryptError = 'not aes128gcm';
        else {
          try {
            payload = decryptAes128gcm(body, secrets).toString('utf8');
          } catch (error) {
            decryptError = error instanceof Error ? error.message : String(error);
          }
        }
        const check = await verifyVapid(request.headers.authorization, {
          publicKey: vapid.publicKey,
          audience: origin,
          subject: vapid.subject,
        });
        const answer = secrets?.answers.shift() ?? (secrets ? { status: 201 } : { status: 404 });
        pushes.push({
          endpoint,
          receivedAt: Date.now(),
          headers: request.headers,
          vapid: check,
          payload,
          decryptError,
          answer,
        });
        if (answer === 'hang') return;
        response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    pushes,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${randomBytes(12).toString('base64url')}`;
      subscriptions.set(endpoint, { ecdh, auth, answers: [] });
      return { endpoint, p256dh: ecdh.getPublicKey('base64url'), auth: auth.toString('base64url') };
    },
    answer(endpoint, ...answers) {
      const secrets = subscriptions.get(endpoint);
      if (!secrets) throw new Error(`no subscription ${endpoint}`);
      secrets.answers.push(...answers);
    },
    pushesTo(endpoint) {
      return pushes.filter((push) => push.endpoint === endpoint);
    },
    close() {
      // Hanging answers and keep-alive connections would hold close() open.
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
