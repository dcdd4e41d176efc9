import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { describeError } from '../../api/core/describe-error.ts';
import { exportActivity } from '../../api/queries/activity-queries.ts';
import { csvFileName, saveCsv } from '../../lib/csv-export.ts';
import { notify } from '../../lib/notify.ts';
import { TOUCH_TARGET, usePhone } from '../../lib/use-phone.ts';
import type { ActivitySearch } from './activity-search.ts';

/**
 * Exports every event the filters name, however many pages that is, as the service writes them (it refuses more than
 * it holds in one file, in words this shows).
 */
export function ActivityExportButton({ search, disabled }: { search: ActivitySearch; disabled: boolean }) {
  const [busy, setBusy] = useState(false);
  const phone = usePhone();
  return (
    <Button
      variant="default"
      size="xs"
      h={phone ? TOUCH_TARGET : undefined}
      leftSection={<IconDownload size={14} />}
      loading={busy}
      disabled={disabled}
      onClick={() => {
        setBusy(true);
        void exportActivity(search)
          .then((csv) => saveCsv(csvFileName('activity'), csv))
          .catch((error: unknown) => notify({ color: 'red', ...describeError(error) }))
          .finally(() => setBusy(false));
      }}
    >
      Export CSV
    </Button>
  );
}
