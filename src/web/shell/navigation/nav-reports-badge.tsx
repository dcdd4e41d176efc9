import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { endpoints } from '../../../shared/contract/index.ts';
import { accountQueries } from '../../api/queries/account-queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';

/** Reports arrive from phones, not through the change stream: asked again at this pace while the navigation shows. */
const REPORTS_POLL_MS = 60_000;

/**
 * The open "This wasn't me" reports beside People, for everyone who may read them: a report means someone else
 * knows that person's password, so it should not wait for somebody to open the overview. Nothing while none is open.
 */
export function NavReportsBadge() {
  const { session } = useSession();
  const allowed = endpointAccess(session, endpoints.reportedCodes).allowed;
  const { data } = useQuery({
    ...accountQueries.reportedCodes(),
    enabled: allowed,
    refetchInterval: REPORTS_POLL_MS,
  });
  const open = data?.filter((report) => !report.HandledBy).length ?? 0;
  if (!allowed || open === 0) return null;
  return (
    <Badge
      size="sm"
      circle={open < 10}
      variant="filled"
      color="red.9"
      aria-label={`${open} open ${open === 1 ? 'report' : 'reports'}`}
      title={`${open} open "This wasn't me" ${open === 1 ? 'report' : 'reports'}`}
      data-testid="open-reports-count"
    >
      {open}
    </Badge>
  );
}
