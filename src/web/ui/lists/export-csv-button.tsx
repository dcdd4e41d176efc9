import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { type CsvColumn, csvFileName, downloadCsv } from '../../lib/csv-export.ts';
import { TOUCH_TARGET, usePhone } from '../../lib/use-phone.ts';

/** The one look of an export: busy while `onExport` makes and saves the file, touch-sized on a phone. */
export function CsvButton({
  disabled,
  onExport,
  children,
}: {
  disabled: boolean;
  onExport: () => Promise<void>;
  children: ReactNode;
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
      disabled={disabled}
      onClick={() => {
        setBusy(true);
        void onExport().finally(() => setBusy(false));
      }}
    >
      {children}
    </Button>
  );
}

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
  return (
    <CsvButton disabled={rows.length === 0} onExport={() => downloadCsv(csvFileName(name), rows, columns)}>
      Export CSV ({rows.length.toLocaleString()})
    </CsvButton>
  );
}
