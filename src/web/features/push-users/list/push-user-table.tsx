import { memo, type ReactNode } from 'react';
import type { PushMessageUser } from '../../../../shared/contract/index.ts';
import { PushUserStatusBadge } from '../../../entities/push-user/push-user-status-badge.tsx';
import { deviceName, devicePlatform } from '../../../lib/devices/device-name.ts';
import type { ListSelection } from '../../../ui/lists/bulk/checkbox-selection.tsx';
import { ListCell, ListRow, ListTable } from '../../../ui/lists/list-table.tsx';
import { RowLink } from '../../../ui/lists/row-link.tsx';
import text from '../../../ui/text/row-text.module.css';
import { Timestamp } from '../../../ui/text/timestamp.tsx';
import { UserText } from '../../../ui/text/user-text.tsx';
import { StatusMenu } from '../status-menu.tsx';
import { PushUserCard } from './push-user-card.tsx';
import cells from './push-user-table.module.css';

export interface PushUserTableProps {
  users: readonly PushMessageUser[];
  /** Selection column (bulk status changes), when the page offers it. */
  selection?: ListSelection<PushMessageUser>;
  /** Controls above the list (export). */
  toolbar?: ReactNode;
}

/** Memoized: the page renders on every keystroke, the table only when its rows or selection change. */
export const PushUserTable = memo(function PushUserTable({ users, selection, toolbar }: PushUserTableProps) {
  return (
    <ListTable
      label="Push message users"
      // Make and model, two times and the status menu: narrower (a tablet held upright) gets cards.
      minWidth={740}
      headings={['User', 'Device', 'Status', 'Registered', 'Modified']}
      rows={users}
      rowKey={(user) => user.Id}
      selection={selection}
      toolbar={toolbar}
      renderRow={(user, _index, rowProps, selectCell) => (
        <ListRow {...rowProps} data-push-user-id={user.Id}>
          {selectCell !== undefined && <ListCell>{selectCell}</ListCell>}
          <ListCell>
            <RowLink to="/push-users/$id" params={{ id: user.Id }}>
              <UserText>{user.UserName}</UserText>
            </RowLink>
            <p className={`${text.xs} ${text.dimmed}`}>#{user.Id}</p>
          </ListCell>
          <ListCell>
            <p className={`${text.sm} ${text.medium}`}>
              <UserText>{deviceName(user)}</UserText>
            </p>
            <p className={`${text.xs} ${text.dimmed}`}>
              <UserText>{devicePlatform(user)}</UserText>
            </p>
          </ListCell>
          <ListCell>
            <PushUserStatusBadge status={user.Status} />
          </ListCell>
          <ListCell>
            <div className={cells.time}>
              <Timestamp value={user.CreatedTimeStampUtc} />
            </div>
          </ListCell>
          <ListCell>
            <div className={cells.time}>
              <Timestamp value={user.ModifiedTimestampUtc} />
            </div>
          </ListCell>
          <ListCell style={{ textAlign: 'right' }}>
            <StatusMenu user={user} />
          </ListCell>
        </ListRow>
      )}
      rowHeight={64}
      cardHeight={180}
      renderCard={(user, _index, card) => <PushUserCard user={user} selecting={card.selecting} />}
    />
  );
});
