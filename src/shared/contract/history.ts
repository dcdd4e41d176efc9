import { z } from 'zod/mini';
import { deferred } from './deferred.ts';
import { AuthorizationRequestStatus, Id, IdText, PushUserStatus } from './resources.ts';

export const HistoryAction = deferred(() => z.enum(['Created', 'Decided', 'StatusChanged', 'Registered']));
export type HistoryAction = z.infer<typeof HistoryAction>;

/** Extension: what the history endpoint records changes of. */
export const HistoryEntity = deferred(() => z.enum(['AuthorizationRequest', 'PushMessageUser']));
export type HistoryEntity = z.infer<typeof HistoryEntity>;

/**
 * Extension: one recorded change, written in the same transaction as the change itself.
 * From/To are status names (Pending, Authorized, Rejected; Active, Disabled, Deleted); From is null on creation.
 */
export const HistoryEntry = deferred(() =>
  z.object({
    Id,
    Entity: HistoryEntity,
    EntityId: Id,
    Action: HistoryAction,
    From: z.nullable(z.string()),
    To: z.string(),
    Comment: z.nullable(z.string()),
    ChangedBy: z.nullable(z.string()),
    ChangedTimestampUtc: z.string(),
  }),
);
export type HistoryEntry = z.infer<typeof HistoryEntry>;
export const HistoryList = deferred(() => z.array(HistoryEntry));

export const HistoryQuery = deferred(() =>
  z.object({
    entity: HistoryEntity,
    id: IdText,
  }),
);

/**
 * Extension: the live change stream (Server-Sent Events). Each event's `event:` field is its Type,
 * its `data:` this JSON. Clients without it keep polling.
 */
export const ChangeEvent = deferred(() =>
  z.discriminatedUnion('Type', [
    z.object({
      Type: z.literal('authorization-request'),
      Id,
      Status: AuthorizationRequestStatus,
      ChangedBy: z.nullable(z.string()),
    }),
    z.object({
      Type: z.literal('push-user'),
      Id,
      Status: PushUserStatus,
      ChangedBy: z.nullable(z.string()),
    }),
    z.object({ Type: z.literal('reset') }),
    /** New security events were kept: an Activity page reads its newest events again (with its own filter and rights). */
    z.object({ Type: z.literal('activity') }),
  ]),
);
export type ChangeEvent = z.infer<typeof ChangeEvent>;
