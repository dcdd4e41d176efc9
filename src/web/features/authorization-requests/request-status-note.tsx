import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import type { RequestDisplayStatus } from '../../entities/request/request-status.ts';
import { RequestStatusBadge } from '../../entities/request/request-status-badge.tsx';
import text from '../../ui/text/row-text.module.css';
import { UserText } from '../../ui/text/user-text.tsx';
import classes from './request-status-note.module.css';
import type { RowChange } from './use-live-queue.ts';

/** True when the list still shows a request as pending but someone else has decided it meanwhile. */
export function decidedElsewhere(
  changed: RowChange | undefined,
  status: RequestDisplayStatus | null,
): changed is RowChange {
  return changed !== undefined && changed.Status !== 'Pending' && status === 'Pending';
}

export interface RequestStatusNoteProps {
  request: AuthorizationRequest;
  status: RequestDisplayStatus | null;
  changed: RowChange | undefined;
  align?: 'flex-start' | 'flex-end';
}

/** A row's status badge and who decided it, or the status someone else just gave it (live greying). Plain elements,
 * like the row around it (see ListRow). */
export function RequestStatusNote({ request, status, changed, align = 'flex-start' }: RequestStatusNoteProps) {
  return (
    <div className={classes.note} data-align={align === 'flex-end' ? 'end' : undefined}>
      {decidedElsewhere(changed, status) ? (
        <>
          <RequestStatusBadge status={changed.Status as RequestDisplayStatus} />
          <p className={`${text.xs} ${text.dimmed}`}>
            {changed.ChangedBy ? (
              <>
                just now by <UserText>{changed.ChangedBy}</UserText>
              </>
            ) : (
              'just now'
            )}
          </p>
        </>
      ) : (
        <>
          {status && <RequestStatusBadge status={status} />}
          {request.DecidedBy && (
            <p className={`${text.xs} ${text.dimmed}`}>
              by <UserText>{request.DecidedBy}</UserText>
            </p>
          )}
        </>
      )}
    </div>
  );
}
