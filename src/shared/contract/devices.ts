import { z } from 'zod/mini';
import { deferred } from './deferred.ts';
import {
  AuthorizationRequestStatus,
  Id,
  InstructionState,
  OptionalPlainText,
  PlainText,
  PushUserStatus,
  REQUEST_FIELD_MAX,
} from './resources.ts';
import { TIMESTAMP_PATTERN } from './timestamps.ts';

/**
 * The device app's interface (extension, under /api only): a phone enrols, is approved in the queue, receives
 * two-factor codes by Web Push and in its inbox, and reports codes its person did not ask for. A device signs its
 * calls with its own credential, `Authorization: Device <DeviceToken>`, handed out once at enrolment.
 */
export const DEVICE_AUTHORIZATION_SCHEME = 'Device';

/** Where the device app lives; an enrolment link is this page with the code in its fragment. */
export const DEVICE_APP_PATH = '/device';
/** The fragment parameter carrying an enrolment code (`/device#enrol=…`): never sent to a server, nor in Referer. */
export const ENROLLMENT_FRAGMENT_PARAMETER = 'enrol';
/** How long an enrolment link works, once. */
export const ENROLLMENT_CODE_LIFETIME_MINUTES = 10;

const Timestamp = deferred(() =>
  z.string().check(z.regex(TIMESTAMP_PATTERN, 'expected a UTC timestamp YYYY-MM-DD hh:mm:ss.fff')),
);

/** `GET /Device/PushKey`. */
export const PushKey = deferred(() =>
  z.object({
    /** The VAPID public key (RFC 8292): base64url of the 65-byte uncompressed P-256 point, as PushManager takes it. */
    PublicKey: z.string(),
    /** Whether the service sends Web Push at all; when false the inbox and the live events still deliver codes. */
    WebPushEnabled: z.boolean(),
    /** Why Web Push is off (for the device app to say); null when it is on. */
    Reason: z.nullable(z.string()),
  }),
);
export type PushKey = z.infer<typeof PushKey>;

/** `POST /Device/EnrollmentLinks`: a single-use code for enrolling a phone without typing a password on it. */
export const EnrollmentLink = deferred(() =>
  z.object({
    Code: z.string(),
    /** The device app's address with the code in its fragment (`…/device#enrol=<Code>`), for a QR code. */
    Url: z.string(),
    ExpiresTimestampUtc: Timestamp,
  }),
);
export type EnrollmentLink = z.infer<typeof EnrollmentLink>;

/**
 * `POST /Device/Enrollments`: the device describes itself. The caller is the signed-in person (bearer token,
 * X-Tachyon-Authenticate or Basic), or anyone holding an unused EnrollmentCode. Optional fields may be empty
 * (unknown); DeviceType may not.
 */
export const DeviceEnrollment = deferred(() =>
  z.object({
    DeviceType: PlainText(REQUEST_FIELD_MAX.DeviceType, 'DeviceType is required'),
    Manufacturer: OptionalPlainText(REQUEST_FIELD_MAX.Manufacturer),
    Model: OptionalPlainText(REQUEST_FIELD_MAX.Model),
    OsVersion: OptionalPlainText(REQUEST_FIELD_MAX.OsVersion),
    /** From an enrolment link; a used, expired or made-up one is a 401 enrollment-code-invalid. */
    EnrollmentCode: z.optional(z.string().check(z.maxLength(128))),
  }),
);
export type DeviceEnrollment = z.infer<typeof DeviceEnrollment>;

export const DeviceEnrollmentResult = deferred(() =>
  z.object({
    /** The Pending authorization request the enrolment made: the queue decides it (#5). */
    AuthorizationRequestId: Id,
    RequestGuid: z.string(),
    /** The device's credential, shown this once: send it as `Authorization: Device <DeviceToken>`. */
    DeviceToken: z.string(),
  }),
);
export type DeviceEnrollmentResult = z.infer<typeof DeviceEnrollmentResult>;

/** `GET /Device`: where this device stands. */
export const DeviceState = deferred(() =>
  z.object({
    AuthorizationRequestId: Id,
    RequestStatus: AuthorizationRequestStatus,
    /** The decision's comment (why it was rejected, say); null when none. */
    Comment: z.nullable(z.string()),
    /** The push message user authorizing made; both null until then. Status 1 Active, 2 Disabled, 3 Deleted. */
    PushMessageUserId: z.nullable(Id),
    PushMessageUserStatus: z.nullable(PushUserStatus),
    /** Whose device it is, and what it said it is. */
    UserName: z.string(),
    DeviceType: z.string(),
    /** The push subscription's endpoint the service holds, null for none: the app compares it with the browser's. */
    PushEndpoint: z.nullable(z.string()),
  }),
);
export type DeviceState = z.infer<typeof DeviceState>;

/** The most characters of a push endpoint URL the service stores. */
export const PUSH_ENDPOINT_MAX = 2048;

/** Unpadded or padded base64url of exactly `bytes` bytes, the first being `first` when given. */
function base64UrlOf(bytes: number, first?: number) {
  return (value: string): boolean => {
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return false;
    const bare = value.replace(/=+$/, '');
    if (Math.floor((bare.length * 6) / 8) !== bytes || bare.length % 4 === 1) return false;
    if (first === undefined) return true;
    const decoded = atob(
      bare
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(bare.length / 4) * 4, '='),
    );
    return decoded.charCodeAt(0) === first;
  };
}

/**
 * `PUT /Device/PushSubscription`: the browser's `PushSubscription.toJSON()` as it is. The keys are those of RFC
 * 8291: the browser's P-256 public key (65 bytes, uncompressed: 0x04 first) and its 16-byte authentication secret.
 * Where the endpoint may point is the service's policy (a 400 push-endpoint-refused says why).
 */
export const PushSubscriptionInput = deferred(() =>
  z.object({
    endpoint: z
      .url({ protocol: /^https?$/, error: 'endpoint must be an http(s) URL' })
      .check(z.maxLength(PUSH_ENDPOINT_MAX)),
    expirationTime: z.optional(z.nullable(z.number())),
    keys: z.object({
      p256dh: z
        .string()
        .check(
          z.refine(
            base64UrlOf(65, 0x04),
            'p256dh must be base64url of a 65-byte uncompressed P-256 public key (0x04 first)',
          ),
        ),
      auth: z.string().check(z.refine(base64UrlOf(16), 'auth must be base64url of 16 bytes')),
    }),
  }),
);
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

/** One code in the device's inbox, with where it was asked for, so the person can tell whether it was them. */
/** What a code on a device is for: an instruction, or the dashboard's own sign-in or step-up. */
export const DevicePushPurpose = deferred(() => z.enum(['Instruction', 'SignIn', 'StepUp']));
export type DevicePushPurpose = z.infer<typeof DevicePushPurpose>;

export const DevicePush = deferred(() =>
  z.object({
    InstructionId: Id,
    Purpose: DevicePushPurpose,
    Name: z.string(),
    Scheduled: z.boolean(),
    Token: z.string(),
    SentTimestampUtc: Timestamp,
    ExpiresTimestampUtc: Timestamp,
    /** The address and User-Agent of the request that asked for the code; null when not known. */
    ClientAddress: z.nullable(z.string()),
    UserAgent: z.nullable(z.string()),
  }),
);
export type DevicePush = z.infer<typeof DevicePush>;
export const DevicePushList = deferred(() => z.array(DevicePush));

/**
 * A notice to a device: another device was enrolled for its person (`enrolled`, waiting for approval) or approved
 * (`approved`). Only the person's other Active devices get one; "This wasn't me" reports it
 * (`POST /Device/Notices/{Id}/Report`).
 */
export const NewDeviceNotice = deferred(() =>
  z.object({
    Id,
    Kind: z.enum(['enrolled', 'approved']),
    /** The new device's enrolment, as it described itself (empty when it did not say). */
    AuthorizationRequestId: Id,
    DeviceType: z.string(),
    Manufacturer: z.string(),
    Model: z.string(),
    OsVersion: z.string(),
    /** When it was enrolled, and when this notice was made (its approval, for `approved`). */
    EnrolledTimestampUtc: Timestamp,
    NoticeTimestampUtc: Timestamp,
    /** Where its enrolment stands now. */
    RequestStatus: AuthorizationRequestStatus,
    /** When this device reported it as not the person's; null until then. */
    ReportedTimestampUtc: z.nullable(Timestamp),
  }),
);
export type NewDeviceNotice = z.infer<typeof NewDeviceNotice>;

/**
 * A notice to a device: the helpdesk issued a temporary code for its person (`temporary-code`), so that someone can
 * sign in as them without a phone. Every Active device of the person gets one. Who issued it, when and until when:
 * never the code. It is not reported from the device (a person who did not ask for it calls their helpdesk).
 */
export const TemporaryCodeNotice = deferred(() =>
  z.object({
    Id,
    Kind: z.literal('temporary-code'),
    TemporaryCodeId: Id,
    /** The helpdesk's user name. */
    IssuedBy: z.string(),
    /** When it was issued (this notice was made then), and until when it works unless used up or revoked first. */
    NoticeTimestampUtc: Timestamp,
    ValidUntilUtc: Timestamp,
  }),
);
export type TemporaryCodeNotice = z.infer<typeof TemporaryCodeNotice>;

export const DeviceNotice = deferred(() => z.discriminatedUnion('Kind', [NewDeviceNotice, TemporaryCodeNotice]));
export type DeviceNotice = z.infer<typeof DeviceNotice>;
export const DeviceNoticeList = deferred(() => z.array(DeviceNotice));

/**
 * What a new device said it is, in plain words: "Samsung Galaxy S24 (Android 15), Android". Its notice on the
 * person's other devices, the Web Push about it and the account's history all name it so.
 */
export function describeNewDevice(
  device: Pick<NewDeviceNotice, 'DeviceType' | 'Manufacturer' | 'Model' | 'OsVersion'>,
): string {
  const name = [device.Manufacturer, device.Model].filter((part) => part.trim() !== '').join(' ');
  const os = device.OsVersion.trim();
  return [name ? (os ? `${name} (${os})` : name) : os, device.DeviceType].filter((part) => part !== '').join(', ');
}

/**
 * `GET /Device/Events`: Server-Sent Events. Each event's `event:` field is its Type, its `data:` this JSON, its
 * `id:` a number to send back as `Last-Event-ID` after a reconnect (events since then are sent first).
 * - `device`: the request was decided or the push user's status changed; the device's state as of now;
 * - `token`: a code arrived (as the inbox lists it);
 * - `token-ended`: a code no longer works (used, replaced by a newer one, reported, or ended by a report of another
 *   code of its person): take it off the screen;
 * - `notice`: another device was enrolled for the person, or approved, or a temporary code was issued for them (as
 *   the notices list it).
 */
export const DeviceEvent = deferred(() =>
  z.discriminatedUnion('Type', [
    z.object({ Type: z.literal('device'), Device: DeviceState }),
    z.object({ Type: z.literal('token'), Push: DevicePush }),
    z.object({ Type: z.literal('token-ended'), InstructionId: Id }),
    z.object({ Type: z.literal('notice'), Notice: DeviceNotice }),
  ]),
);
export type DeviceEvent = z.infer<typeof DeviceEvent>;

// Instructions (extension): a person, or a script acting as them, asks for something that needs two-factor.

export const INSTRUCTION_NAME_MAX = 256;

export const InstructionInput = deferred(() =>
  z.object({
    Name: PlainText(INSTRUCTION_NAME_MAX, 'Name is required'),
    Scheduled: z._default(z.boolean(), false),
  }),
);
export type InstructionInput = z.infer<typeof InstructionInput>;

export const Instruction = deferred(() =>
  z.object({
    Id,
    Name: z.string(),
    Scheduled: z.boolean(),
    State: InstructionState,
    /** When the current code stops working; null once none is outstanding. */
    TokenExpiresTimestampUtc: z.nullable(Timestamp),
    /** Active devices (push message users) of the creator the code went to. */
    DevicesNotified: z.int().check(z.minimum(0)),
  }),
);
export type Instruction = z.infer<typeof Instruction>;

/** New two-factor codes one person may be sent in this many minutes (instructions and new tokens together). */
export const CODE_WINDOW_MINUTES = 10;
export const MAX_CODES_PER_WINDOW = 5;
