export interface ThrowawayCluster {
  url: string;
  port: number;
  tempDir: string;
  logFile: string;
  version: string;
  stop(): void;
}
export function ensurePostgres(log?: (message: string) => void): string;
export function startThrowawayCluster(options?: {
  settings?: string[];
  log?: (message: string) => void;
}): Promise<ThrowawayCluster>;
