import type { AuditSink } from '../audit/audit-log.ts';

/** One audit line as parsed JSON, with the ECS fields tests read. */
export interface AuditRecord {
  '@timestamp': string;
  ecs: { version: string };
  event: { kind: string; category: string[]; type: string[]; action: string; outcome: string; reason?: string };
  user?: { name: string };
  source?: { ip: string };
  user_agent?: { original: string };
  service: { name: string };
  tachyon?: { entity?: { type: string; id: number | string | null }; details?: Record<string, unknown> };
}

/** An audit sink in memory: every line written, and each parsed. */
export class AuditLines implements AuditSink {
  readonly lines: string[] = [];

  write(line: string): void {
    this.lines.push(line);
  }

  get records(): AuditRecord[] {
    return this.lines.map((line) => JSON.parse(line) as AuditRecord);
  }

  /** The records of one event.action, in order. */
  of(action: string): AuditRecord[] {
    return this.records.filter((record) => record.event.action === action);
  }

  clear(): void {
    this.lines.length = 0;
  }
}
