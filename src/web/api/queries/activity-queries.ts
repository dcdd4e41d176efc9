import { endpoints } from '../../../shared/contract/index.ts';
import { api } from '../instance.ts';
import { pollUnlessLive } from '../live/live-mode.ts';
import { endpointQuery } from './endpoint-query.ts';

/** The filters of the Activity endpoint as a URL carries them (every value a string). */
export interface ActivityFilters {
  actor?: string | undefined;
  person?: string | undefined;
  target?: string | undefined;
  action?: string | undefined;
  outcome?: 'success' | 'failure' | undefined;
  from?: string | undefined;
  to?: string | undefined;
  q?: string | undefined;
  before?: string | undefined;
  limit?: string | undefined;
}

/** How often the newest events are read again while the change stream is down (live, it says when there are new). */
export const ACTIVITY_POLL_MS = 10_000;

const activityKeys = { all: ['activity'] as const };

/** How many of the newest events a person's page or an account's drawer shows. */
const SLICE_SIZE = 10;

/** Without the keys a filter leaves empty, so one filter has one cache entry. */
function given(filters: ActivityFilters): ActivityFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''));
}

export const activityQueries = {
  ...activityKeys,
  /** One page: the newest (read again on the change stream's word, or polled without it) or an older one (fixed). */
  page: endpointQuery(endpoints.listActivity, (filters: ActivityFilters) => {
    const query = given(filters);
    return {
      queryKey: [...activityKeys.all, 'page', query] as const,
      call: { query },
      options: { refetchInterval: query.before ? false : pollUnlessLive(ACTIVITY_POLL_MS) },
    };
  }),
  /**
   * The newest events of one person or account, as their page or drawer shows them. Here, beside the pages, so the
   * person page's loader asks for it without waiting for the component's code.
   */
  slice: (filter: Pick<ActivityFilters, 'person' | 'target'>) =>
    activityQueries.page({ ...filter, limit: String(SLICE_SIZE) }),
};

/** Every event the filters name (not only the pages loaded), as the CSV file the service makes of them. */
export function exportActivity(filters: ActivityFilters): Promise<Blob> {
  const { before: _before, limit: _limit, ...query } = given(filters);
  return api.call(endpoints.exportActivity, { query });
}
