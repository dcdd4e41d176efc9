/** Each loop of static imports among the chunks (file name → code), as `a.js -> b.js -> a.js`. */
export function chunkCycles(sources: ReadonlyMap<string, string>): string[];
