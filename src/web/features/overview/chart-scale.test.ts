import { describe, expect, it } from 'vitest';
import { countAxis } from './chart-scale.ts';

describe('countAxis', () => {
  it('counts in whole steps of 1, 2 or 5 times a power of ten, up to the largest count', () => {
    expect(countAxis(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(countAxis(3)).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    expect(countAxis(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(countAxis(17)).toEqual({ top: 20, ticks: [0, 5, 10, 15, 20] });
    expect(countAxis(180)).toEqual({ top: 200, ticks: [0, 50, 100, 150, 200] });
  });
});
