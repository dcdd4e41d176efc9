import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { ensureBuilt } from '../scripts/build.mjs';
import { activityBench } from './activity.ts';
import { bundleBench } from './bundle-size.ts';
import { coldLoadBench } from './cold-load.ts';
import { dashboardScaleBench } from './dashboard-scale.ts';
import { lighthouseBench } from './lighthouse.ts';
import { listBench, prepareScaleData, removeScaleData, startupBench } from './lists.ts';
import { postgresBench } from './pg.ts';
import { SERVER_ENTRY } from './processes.ts';
import { type Figure, printFigures } from './report.ts';
import { smokeBench } from './smoke.ts';
import { throughputBench } from './throughput.ts';

/**
 * `npm run bench`: every performance target (issues 4 and 15) as figure, floor and ratio; non-zero exit on a miss.
 * `npm run bench -- pg` runs the PostgreSQL path instead, `npm run bench -- lighthouse` Lighthouse on every page,
 * `npm run bench -- smoke` one small figure (npm test).
 */
async function main(): Promise<void> {
  // Built when a source changed since the last build (aside, then swapped in), unless BENCH_BUILD=0 says not to or
  // the service to measure is named (BENCH_SERVER_ENTRY: the smoke test's own build).
  if (!process.env.BENCH_SERVER_ENTRY && (process.env.BENCH_BUILD !== '0' || !existsSync(SERVER_ENTRY))) ensureBuilt();
  const figures: Figure[] = [];
  // `npm run bench -- lists` runs only the sections whose names contain an argument.
  const only = process.argv.slice(2);
  // Sections run only when named: PostgreSQL (a cluster of its own), Lighthouse (minutes of its own) and the smoke figure.
  const onRequest = new Set(['pg', 'smoke', 'lighthouse']);
  const section = async (name: string, run: () => Promise<Figure[]>) => {
    if (onRequest.has(name) ? !only.includes(name) : only.length > 0 && !only.some((word) => name.includes(word)))
      return;
    console.log(`\n== ${name}`);
    const result = await run();
    printFigures(result);
    figures.push(...result);
  };

  await section('smoke', smokeBench);
  await section('pg', postgresBench);
  await section('service throughput', throughputBench);
  const needsScaleData =
    only.length === 0 || only.some((word) => 'lists at scale start-up dashboard at scale'.includes(word));
  const dataDir = needsScaleData ? await prepareScaleData() : null;
  if (dataDir) {
    try {
      await section('lists at scale', () => listBench(dataDir));
      await section('start-up', () => startupBench(dataDir));
      await section('dashboard at scale', () => dashboardScaleBench(dataDir));
    } finally {
      removeScaleData(dataDir);
    }
  }
  await section('activity at scale', activityBench);
  await section('dashboard size', bundleBench);
  await section('cold first load', coldLoadBench);
  await section('lighthouse', lighthouseBench);

  console.log('\n== all targets');
  printFigures(figures);
  mkdirSync('bench-results', { recursive: true });
  const resultFile = only.length > 0 ? `bench-results/${only.join('-')}.json` : 'bench-results/latest.json';
  writeFileSync(resultFile, `${JSON.stringify({ at: new Date().toISOString(), figures }, null, 2)}\n`);
  const missed = figures.filter((figure) => !figure.pass);
  if (missed.length > 0) {
    console.error(`\n${missed.length} budget(s) missed: ${missed.map((figure) => figure.target).join('; ')}`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
