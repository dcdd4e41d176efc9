import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ensureServerBuilt } from '../src/server/test/service-process.ts';
import type { Figure } from './report.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// CI does not run the bench (too slow, too noisy), so this checks it still starts and measures one small
// figure. No timing is asserted: only that the figure, its floor and the report come out.
it('the bench starts and measures one small figure (npm run bench -- smoke)', async () => {
  const entry = ensureServerBuilt();
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'smoke'], {
    cwd: ROOT,
    env: { ...process.env, BENCH_SERVER_ENTRY: entry },
    timeout: 120_000,
  });
  expect(stdout).toMatch(/ok\s+smoke: GET version, 4 conns, 1 s\s+\d+(\.\d+)? req\/s\s+\d+(\.\d+)? \(bare Fastify\)/);
  const { figures } = JSON.parse(readFileSync(path.join(ROOT, 'bench-results/smoke.json'), 'utf8')) as {
    figures: Figure[];
  };
  expect(figures).toHaveLength(1);
  expect(figures[0]?.figure).toBeGreaterThan(0);
  expect(figures[0]?.floor).toBeGreaterThan(0);
}, 150_000);
