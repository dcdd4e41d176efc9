/** What the bulk bar shows; apart from both the bar and its lazily loaded content, which each read it. */
export interface BulkAction {
  key: string | number;
  /** Without the count: "Approve" becomes "Approve 3". */
  label: string;
  onClick: () => void;
  color?: string | undefined;
  variant?: 'filled' | 'light' | 'default' | undefined;
}

export interface BulkBarProps {
  count: number;
  total: number;
  allSelected: boolean;
  onSelectAll: () => void;
  onClear: () => void;
  actions: BulkAction[];
}
