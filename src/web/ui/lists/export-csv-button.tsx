import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { type CsvColumn, csvFileName, downloadCsv } from '../../lib/csv-export.ts';
import { TOUCH_TARGET, usePhone } from '../../lib/use-phone.ts';

/** Exports exactly the rows on screen (after filter, search and sort), all columns. */
export function ExportCsvButton<T>({
  rows,
  columns,
  name,
}: {
  rows: readonly T[];
  columns: readonly CsvColumn<T>[];
  name: string;
}) {
  const [busy, setBusy] = useState(false);
  const phone = usePhone();
  return (
    <Button
      variant="default"
      size="xs"
      h={phone ? TOUCH_TARGET : undefined}
      leftSection={<IconDownload size={14} />}
      loading={busy}
      disabled={rows.length === 0}
      onClick={() => {
        setBusy(true);
        void downloadCsv(csvFileName(name), rows, columns).finally(() => setBusy(false));
      }}
    >
      Export CSV ({rows.length.toLocaleString()})
    </Button>
  );
}
