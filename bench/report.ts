export interface Figure {
  target: string;
  figure: number;
  unit: string;
  floor: number | null;
  floorLabel: string;
  ratio: number | null;
  /** Human wording of the budget, e.g. "ratio >= 0.5". */
  budget: string;
  pass: boolean;
}

const fmt = (value: number | null) =>
  value === null
    ? ''
    : Math.abs(value) >= 100
      ? value.toFixed(0)
      : Math.abs(value) >= 1
        ? value.toFixed(2)
        : value.toFixed(3);

export function printFigures(figures: Figure[]): void {
  const rows = figures.map((f) => [
    f.pass ? 'ok' : 'MISS',
    f.target,
    `${fmt(f.figure)} ${f.unit}`,
    f.floor === null ? '' : `${fmt(f.floor)} (${f.floorLabel})`,
    fmt(f.ratio),
    f.budget,
  ]);
  const header = ['', 'target', 'figure', 'floor', 'ratio', 'budget'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}
