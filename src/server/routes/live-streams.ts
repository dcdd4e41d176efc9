import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { endpoints, MAX_STREAMS_PER_SESSION } from '../../shared/contract/index.ts';
import type { AuthenticatedSession } from '../domain/authentication/sessions.ts';
import { hasPermission } from '../domain/identity/principals.ts';
import { liveStreamCapsOf } from '../http/live-stream-caps.ts';
import type { Services } from './services.ts';

/**
 * How often open streams are looked over for a session past its deadline as last read (idle or absolute). This reads
 * the clock only; a stream whose deadline has passed then reads its session once, since the person's activity
 * elsewhere may have moved the idle deadline.
 */
const DEADLINE_SWEEP_MS = 2_000;
/**
 * How often a stream reads its session even when nothing was announced. Sign-out, disabling, password and permission
 * changes are announced on the change feed and end a stream at once; this covers what is not: a directory group
 * removed (seen at the person's next directory sign-in), an announcement missed while a process's PostgreSQL LISTEN
 * connection was down, a change made in the database by hand.
 */
export const STREAM_SESSION_RECHECK_MS = 30_000;

/** One open stream, as the caps and the session checks see it. */
interface LiveStream {
  session: AuthenticatedSession;
  /** The session's deadline as last read. */
  expires: Date;
  /** performance.now() of the last read of the session. */
  checkedAt: number;
  /** Reads the session now (again after the current read, when one is under way) and ends the stream if it ended. */
  recheck(): void;
  checking: boolean;
  end(): void;
}

/** A stream the registry admitted: ending it (the client left) releases its place; it ends itself on a lost session. */
export interface AdmittedStream {
  end(): void;
}

/** The live streams of this process, admitted under the caps and ended when their session ends. */
export interface LiveStreams {
  /**
   * Admits one more stream for the session, or throws 429 when a cap is reached. `close` runs once, when the stream
   * ends for whatever reason (the client left, the session ended or lost the permission).
   */
  admit(session: AuthenticatedSession, log: FastifyBaseLogger, close: () => void): AdmittedStream;
}

/**
 * A stream holds a connection and a subscriber for as long as it is open, and sessions cost nothing to make, so
 * streams are capped per session, per account over all its sessions and devices, and per process (counted with the
 * devices' streams: http/live-stream-caps.ts). Each stream's session is
 * read again when its account's access changes (announced on the change feed), when its deadline passes, and every
 * STREAM_SESSION_RECHECK_MS.
 */
export function liveStreams(
  app: FastifyInstance,
  { changes, sessions, clock, config }: Pick<Services, 'changes' | 'sessions' | 'clock' | 'config'>,
): LiveStreams {
  const open = new Set<LiveStream>();
  // Counted with the devices' own streams, so neither kind gets around the other's caps.
  const caps = liveStreamCapsOf(app, {
    perPerson: config.liveStreamsPerAccount,
    perProcess: config.liveStreamsPerProcess,
  });
  /** Open streams per account in this process, to recheck when its access changes. */
  const perAccount = new Map<number, Set<LiveStream>>();

  const stopListening = changes.onAccessChange((principalId) => {
    const ofAccount = perAccount.get(principalId);
    if (!ofAccount) return;
    // Once every listener has heard it: the session cache forgets the account first, so the read is fresh.
    queueMicrotask(() => {
      for (const stream of ofAccount) stream.recheck();
    });
  });
  const sweep = setInterval(() => {
    const now = clock().getTime();
    const wall = performance.now();
    for (const stream of open) {
      if (stream.checking) continue;
      if (now >= stream.expires.getTime() || wall - stream.checkedAt >= STREAM_SESSION_RECHECK_MS) stream.recheck();
    }
  }, DEADLINE_SWEEP_MS);
  sweep.unref();
  app.addHook('preClose', async () => {
    clearInterval(sweep);
    stopListening();
  });

  /** Whether the session as read now may still hold the stream. */
  function stillAllowed(current: AuthenticatedSession | null): current is AuthenticatedSession {
    const { access } = endpoints.changeEvents;
    if (!current) return false;
    return access.kind !== 'permission' || hasPermission(current.principal, access.entity, access.permission);
  }

  function admit(session: AuthenticatedSession, log: FastifyBaseLogger, close: () => void): AdmittedStream {
    const principalId = session.principal.id;
    const release = caps.admit({
      personId: principalId,
      key: `session:${session.tokenHash}`,
      max: MAX_STREAMS_PER_SESSION,
      tooManyOwn: `This session already has ${MAX_STREAMS_PER_SESSION} live streams open; close one (a tab) before opening another.`,
    });
    let ended = false;
    let again = false;
    const stream: LiveStream = {
      session,
      expires: session.expires,
      checkedAt: performance.now(),
      checking: false,
      recheck() {
        if (ended) return;
        if (stream.checking) {
          again = true;
          return;
        }
        stream.checking = true;
        stream.checkedAt = performance.now();
        sessions
          .authenticate(session.token, 'background')
          .then((current) => {
            if (stillAllowed(current)) stream.expires = current.expires;
            else stream.end();
          })
          .catch((error: unknown) => log.warn({ err: error }, 'live stream: session check failed'))
          .finally(() => {
            stream.checking = false;
            if (again) {
              again = false;
              stream.recheck();
            }
          });
      },
      end() {
        if (ended) return;
        ended = true;
        open.delete(stream);
        release();
        const ofAccount = perAccount.get(principalId);
        ofAccount?.delete(stream);
        if (ofAccount?.size === 0) perAccount.delete(principalId);
        close();
      },
    };
    open.add(stream);
    const ofAccount = perAccount.get(principalId) ?? new Set<LiveStream>();
    ofAccount.add(stream);
    perAccount.set(principalId, ofAccount);
    return stream;
  }

  return { admit };
}
