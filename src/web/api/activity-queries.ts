import { endpoints } from '../../shared/contract/index.ts';
import { endpointQuery } from './endpoint-query.ts';
import { api } from './instance.ts';

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

/** How often the newest events are read again: sign-ins and the like reach no live stream. */
export const ACTIVITY_POLL_MS = 10_000;

const activityKeys = { all: ['activity'] as const };

/** Without the keys a filter leaves empty, so one filter has one cache entry. */
function given(filters: ActivityFilters): ActivityFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''));
}

export const activityQueries = {
  ...activityKeys,
  /** One page: the newest (polled, so it follows what happens) or an older one after `before` (fixed). */
  page: endpointQuery(endpoints.listActivity, (filters: ActivityFilters) => {
    const query = given(filters);
    return {
      queryKey: [...activityKeys.all, 'page', query] as const,
      call: { query },
      options: { refetchInterval: query.before ? false : ACTIVITY_POLL_MS },
    };
  }),
};

/** Every event the filters name (not only the pages loaded), as the CSV file the service makes of them. */
export function exportActivity(filters: ActivityFilters): Promise<Blob> {
  const { before: _before, limit: _limit, ...query } = given(filters);
  return api.call(endpoints.exportActivity, { query });
}
