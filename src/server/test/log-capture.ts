import { Writable } from 'node:stream';

export interface LogLine {
  /** pino's numbers: 30 info, 40 warn, 50 error. */
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger setting for buildApp that keeps what the service logs at `level` and above, line by line, parsed. */
export function logCapture(level = 'warn') {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      callback();
    },
  });
  return {
    logger: { level, stream },
    lines,
    /** The warnings whose message contains `text`. */
    warnings: (text: string) => lines.filter((line) => line.level === 40 && line.msg.includes(text)),
  };
}
