import type { ActivityEvent } from '../../../shared/contract/index.ts';
import { RowLink } from '../../ui/lists/row-link.tsx';
import text from '../../ui/text/row-text.module.css';
import { UserText } from '../../ui/text/user-text.tsx';

/** An event's target, linked to its page: a request, a push user, an account's drawer; plain text otherwise. */
export function ActivityTargetLink({ event }: { event: Pick<ActivityEvent, 'TargetType' | 'TargetId'> }) {
  const id = event.TargetId;
  if (!event.TargetType || !id) return <span className={`${text.sm} ${text.dimmed}`}>—</span>;
  const numeric = /^\d{1,10}$/.test(id) ? Number(id) : null;
  if (numeric !== null && event.TargetType === 'AuthorizationRequest') {
    return (
      <RowLink to="/authorization-requests/$id" params={{ id: numeric }}>
        Request {id}
      </RowLink>
    );
  }
  if (numeric !== null && event.TargetType === 'PushMessageUser') {
    return (
      <RowLink to="/push-users/$id" params={{ id: numeric }}>
        Push user {id}
      </RowLink>
    );
  }
  if (numeric !== null && event.TargetType === 'Account') {
    return (
      <RowLink to="/accounts" search={{ account: numeric }}>
        Account {id}
      </RowLink>
    );
  }
  return (
    <span className={text.sm}>
      <UserText>{`${event.TargetType} ${id}`}</UserText>
    </span>
  );
}

/** Whom an event concerns, linked to their person page. */
export function ActivityPersonLink({ name }: { name: string | null }) {
  if (!name) return <span className={`${text.sm} ${text.dimmed}`}>—</span>;
  return (
    <RowLink to="/people/$userName" params={{ userName: name }}>
      <UserText>{name}</UserText>
    </RowLink>
  );
}
