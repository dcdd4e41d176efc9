/**
 * The y axis of a count chart: whole-number ticks from 0 at a step of 1, 2 or 5 times a power of ten, the top tick at
 * or above the largest count, at most `maxTicks` steps. An empty chart still has the axis 0 to 1.
 */
export function countAxis(largest: number, maxTicks = 4): { top: number; ticks: number[] } {
  const target = Math.max(largest, 1);
  let step = 1;
  for (let power = 1; ; power *= 10) {
    const found = [1, 2, 5].map((factor) => factor * power).find((candidate) => target / candidate <= maxTicks);
    if (found) {
      step = found;
      break;
    }
  }
  const top = Math.ceil(target / step) * step;
  const ticks: number[] = [];
  for (let value = 0; value <= top; value += step) ticks.push(value);
  return { top, ticks };
}
