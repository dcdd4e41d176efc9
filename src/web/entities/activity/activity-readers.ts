import {
  ACCOUNTS_ENTITY,
  ACTIVITY_ACTIONS,
  ACTIVITY_READERS,
  type ActivityAction,
} from '../../../shared/contract/index.ts';
import { hasPermission } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';

/**
 * Whether the signed-in person reads account events too (sign-ins, account changes, temporary codes): the service
 * leaves them out for anyone without Read on Accounts, so the pages say so rather than look complete.
 */
export function useMayReadAccountEvents(): boolean {
  const { session } = useSession();
  return hasPermission(session, 'Read', ACCOUNTS_ENTITY);
}

/** What the service leaves out for a reader without Read on Accounts, and what would show it. */
export const ACCOUNT_EVENTS_WITHHELD =
  'Sign-ins and what is done to accounts (disabled, signed out, reset, temporary codes) show with Read on Accounts.';

/** The actions whose events a reader may see: the Event filter offers no event that could never match. */
export const readableActions = (accountEvents: boolean): ActivityAction[] =>
  ACTIVITY_ACTIONS.filter((action) => accountEvents || ACTIVITY_READERS[action] === 'security');
