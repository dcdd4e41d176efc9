import { memo, type ReactNode } from 'react';
import type { AuthorizationRequest } from '../../../../shared/contract/index.ts';
import { DeviceSummary } from '../../../entities/device/device-summary.tsx';
import type { Decision } from '../../../entities/request/decision.ts';
import { RequestContextLine } from '../../../entities/request/request-context.tsx';
import type { RequestDisplayStatus } from '../../../entities/request/request-status.ts';
import { ListCell, ListRow, useCompactTable } from '../../../ui/lists/list-table.tsx';
import { RowLink } from '../../../ui/lists/row-link.tsx';
import type { VirtualRowProps } from '../../../ui/lists/virtual/virtual-table-body.tsx';
import text from '../../../ui/text/row-text.module.css';
import { Timestamp } from '../../../ui/text/timestamp.tsx';
import { UserText } from '../../../ui/text/user-text.tsx';
import { DecisionButtons } from '../decision-buttons.tsx';
import { decidedElsewhere, RequestStatusNote } from '../request-status-note.tsx';
import type { RowChange } from '../use-live-queue.ts';
import classes from './request-row.module.css';

export interface RequestRowProps {
  request: AuthorizationRequest;
  status: RequestDisplayStatus | null;
  onDecide: (request: AuthorizationRequest, decision: Decision) => void;
  rowProps?: VirtualRowProps;
  /** Decided by someone else while this list was on screen. */
  changed?: RowChange | undefined;
  selectCell?: ReactNode;
  /** A Status cell (not in the pending queue, where a request decided elsewhere says so beside its actions). */
  showStatus?: boolean;
}

/** One request in the queue's table. Plain elements with Mantine's look (see ListRow): the queue's first render is
 * mostly its rows. */
export const RequestRow = memo(function RequestRow({
  request,
  status,
  onDecide,
  rowProps,
  changed,
  selectCell,
  showStatus = true,
}: RequestRowProps) {
  const stale = decidedElsewhere(changed, status);
  const compact = useCompactTable();
  return (
    <ListRow
      {...rowProps}
      data-request-id={request.Id}
      data-stale={stale ? 'true' : undefined}
      style={stale ? { opacity: 0.55 } : undefined}
    >
      {selectCell !== undefined && <ListCell>{selectCell}</ListCell>}
      <ListCell>
        <div className={classes.who}>
          <RowLink to="/authorization-requests/$id" params={{ id: request.Id }} data-request-focus={request.Id}>
            <UserText>{request.UserName}</UserText>
          </RowLink>
          <p className={`${text.xs} ${text.dimmed}`} style={compact ? { overflowWrap: 'anywhere' } : undefined}>
            <UserText>{request.UserEmail}</UserText>
          </p>
        </div>
      </ListCell>
      <ListCell>
        <DeviceSummary
          deviceType={request.DeviceType}
          manufacturer={request.Manufacturer}
          model={request.Model}
          osVersion={request.OsVersion}
        />
      </ListCell>
      <ListCell>
        <Timestamp value={request.CreatedTimestampUtc} />
        {status === 'Pending' && <RequestContextLine id={request.Id} />}
      </ListCell>
      {showStatus && (
        <ListCell>
          <RequestStatusNote request={request} status={status} changed={changed} />
        </ListCell>
      )}
      <ListCell>
        {status === 'Pending' && !stale && (
          <DecisionButtons request={request} onDecide={(d) => onDecide(request, d)} wrap={compact} />
        )}
        {!showStatus && stale && <RequestStatusNote request={request} status={status} changed={changed} />}
      </ListCell>
    </ListRow>
  );
});
