export function findChromium(): string | null;
export const CHROMIUM_ARGS: string[];
