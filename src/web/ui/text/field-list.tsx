import { DataList } from '@mantine/core';
import type { ReactNode } from 'react';
import { UserText } from './user-text.tsx';

/** One row of a detail page: a label and its value (text from users is shown as text, never as markup). */
export type Field = readonly [label: string, value: ReactNode];

/** A detail page's fields, label beside value. */
export function FieldList({ fields }: { fields: readonly Field[] }) {
  return (
    <DataList orientation="horizontal" labelWidth={140} withDivider size="sm">
      {fields.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          {/* A long address or GUID wraps inside a phone's width instead of running past the card. */}
          <DataList.ItemValue style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {typeof value === 'string' ? <UserText>{value}</UserText> : value}
          </DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList>
  );
}
