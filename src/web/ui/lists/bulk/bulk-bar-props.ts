/** What the bulk bar shows; apart from both the bar and its lazily loaded content, which each read it. */
export interface BulkAction {
  key: string | number;
  /** Without the count: "Approve" becomes "Approve 3". */
  label: string;
  /** How many of the selected rows it changes, when not all of them: "Approve 2 of 3". */
  changes?: number | undefined;
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
  /** Only the actions that change something; none: `nothingToDo` says why. */
  actions: BulkAction[];
  /** Why no action is offered for this selection, e.g. "None of them is pending." */
  nothingToDo?: string | undefined;
}
