import { useQuery } from '@tanstack/react-query';
import { useSettings } from '../settings/use-settings.ts';
import { systemQueries } from './queries/system-queries.ts';

/** Whether the server says demo mode is on (GET /api/Consumer/Version → Demo: true); false until it has said. */
export function useDemoMode(): { demo: boolean; checking: boolean } {
  const [settings] = useSettings();
  const version = useQuery(systemQueries.version(settings.baseUrl));
  return { demo: version.data?.Demo === true, checking: version.isPending };
}
