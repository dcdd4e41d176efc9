export const DIST: string;
export const BUILDS: string;
export function buildEnvironment(environment?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function inputStamp(root?: string): string;
export function builtStamp(): string | null;
export function swapIn(folder: string): string | null;
export function prune(previous: string | null): void;
export function ensureBuilt(options?: { force?: boolean; log?: (line: string) => void }): boolean;
export function markServing(): string;
