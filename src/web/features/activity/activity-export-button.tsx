import { describeError } from '../../api/core/describe-error.ts';
import { exportActivity } from '../../api/queries/activity-queries.ts';
import { csvFileName, saveCsv } from '../../lib/csv-export.ts';
import { notify } from '../../lib/notify.ts';
import { CsvButton } from '../../ui/lists/export-csv-button.tsx';
import type { ActivitySearch } from './activity-search.ts';

/**
 * Exports every event the filters name, however many pages that is, as the service writes them (it refuses more than
 * it holds in one file, in words this shows).
 */
export function ActivityExportButton({ search, disabled }: { search: ActivitySearch; disabled: boolean }) {
  return (
    <CsvButton
      disabled={disabled}
      onExport={() =>
        exportActivity(search)
          .then((csv) => saveCsv(csvFileName('activity'), csv))
          .catch((error: unknown) => notify({ color: 'red', ...describeError(error) }))
      }
    >
      Export CSV
    </CsvButton>
  );
}
