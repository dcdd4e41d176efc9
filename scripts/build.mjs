// The build, never under a running service: each build goes into a folder of its own, dist-builds/<stamp>-<time>/,
// and `dist` is a symbolic link to the current one, swapped in one rename. A service keeps the folder it started
// from (its modules resolve to the real path; it serves the dashboard's real folder), so a build made while it runs
// leaves its files alone. The stamp is a hash of every input: `npm start` builds only when an input changed.
// `node scripts/build.mjs` builds when the stamp changed; `--force` builds anyway (`npm run build`).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
export const DIST = path.join(ROOT, 'dist');
export const BUILDS = path.join(ROOT, 'dist-builds');
const STAMP_FILE = 'build-stamp';
/** Where `npm start` notes the process serving a build (one empty file per process id): that build is kept. */
const SERVING = 'serving';

/** What a build is made from: sources (tests aside), the pages, public files, build scripts and configuration. */
const INPUT_FOLDERS = ['src', 'public', 'scripts'];
const INPUT_FILES = [
  'index.html',
  'device.html',
  'vite.config.ts',
  'vite.device.config.ts',
  'tsconfig.json',
  'tsconfig.server.json',
  'package.json',
  'package-lock.json',
];
const NOT_INPUT = /\.test\.tsx?$/;

/** A hash of every input file's path and content: equal stamps, equal builds. */
export function inputStamp(root = ROOT) {
  const files = INPUT_FILES.filter((file) => fs.existsSync(path.join(root, file)));
  for (const folder of INPUT_FOLDERS) {
    for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || NOT_INPUT.test(entry.name)) continue;
      files.push(path.relative(root, path.join(entry.parentPath, entry.name)));
    }
  }
  const hash = createHash('sha256');
  for (const file of files.sort())
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

/** The stamp of the build `dist` holds, or null (no build, or one made before stamps). */
export function builtStamp() {
  try {
    return fs.readFileSync(path.join(DIST, STAMP_FILE), 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * What the build's commands run with: always a production build. Vite follows NODE_ENV when it is set, and a test
 * runner sets it to `test`: a build made from a test (the stamp is the same) was React's development build, twice the
 * size, and `npm start` then served it as current.
 */
export const buildEnvironment = (environment = process.env) => ({ ...environment, NODE_ENV: 'production' });

const run = (command, args) => execFileSync(command, args, { cwd: ROOT, stdio: 'inherit', env: buildEnvironment() });

/** Builds the dashboard, the device app and the service into `folder` (which must not exist yet). */
function buildInto(folder) {
  const web = path.join(folder, 'web');
  const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
  run(bin('vite'), ['build', '--outDir', web, '--emptyOutDir']);
  run(process.execPath, ['scripts/chunk-cycles.mjs', path.join(web, 'assets')]);
  run(bin('vite'), ['build', '--config', 'vite.device.config.ts', '--outDir', web]);
  run(process.execPath, ['scripts/compress-assets.mjs', web]);
  // Emitted only: the type check is `npm run typecheck`'s (npm test runs it first), and checking again here would
  // take twice as long as the emit.
  run(bin('tsc'), ['-p', 'tsconfig.server.json', '--noCheck', '--outDir', path.join(folder, 'node')]);
}

/**
 * Makes `folder` (a finished build in dist-builds/) the current one: a new link renamed over `dist`, so `dist` is
 * always a whole build, the old or the new. A `dist` that is a folder (made before builds went aside, or by a test's
 * compile) moves into dist-builds/ first. Answers the build that was current, if any.
 */
export function swapIn(folder) {
  fs.mkdirSync(BUILDS, { recursive: true });
  const stat = fs.lstatSync(DIST, { throwIfNoEntry: false });
  let previous = null;
  if (stat?.isSymbolicLink()) previous = fs.existsSync(DIST) ? fs.realpathSync(DIST) : null;
  else if (stat) {
    previous = path.join(BUILDS, `unstamped-${Date.now()}`);
    fs.renameSync(DIST, previous);
  }
  const link = `${DIST}.${process.pid}.link`;
  fs.rmSync(link, { force: true });
  fs.symlinkSync(path.relative(ROOT, folder), link, 'dir');
  fs.renameSync(link, DIST);
  return previous;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/** Whether a running `npm start` serves this build. */
function served(folder) {
  const serving = path.join(folder, SERVING);
  if (!fs.existsSync(serving)) return false;
  return fs.readdirSync(serving).some((pid) => alive(Number(pid)));
}

/**
 * Removes the builds nobody needs: not the current one, not the one before it (a service started without
 * `npm start`, `node dist/node/server/server.js`, may serve it), not one a running `npm start` serves, and not a
 * build still being made (by another `npm start` at the same time).
 */
export function prune(previous) {
  const current = fs.realpathSync(DIST);
  for (const name of fs.readdirSync(BUILDS)) {
    const folder = path.join(BUILDS, name);
    if (folder === current || folder === previous || name.includes('.partial-')) continue;
    if (served(folder)) continue;
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** Builds aside and swaps the build in, unless `dist` already holds a build of these inputs (or `force`). */
export function ensureBuilt({ force = false, log = console.log } = {}) {
  const stamp = inputStamp();
  if (!force && builtStamp() === stamp) {
    log(`build ${stamp} is current (no source changed since): not rebuilding`);
    return false;
  }
  fs.mkdirSync(BUILDS, { recursive: true });
  const name = `${stamp}-${Date.now()}`;
  const partial = path.join(BUILDS, `${name}.partial-${process.pid}`);
  log(`building ${stamp} into ${path.relative(ROOT, partial)}`);
  try {
    buildInto(partial);
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  fs.writeFileSync(path.join(partial, STAMP_FILE), `${stamp}\n`);
  const folder = path.join(BUILDS, name);
  fs.renameSync(partial, folder);
  prune(swapIn(folder));
  return true;
}

/** Notes that this process serves the current build, so no later build removes it while it runs. */
export function markServing() {
  const folder = fs.realpathSync(DIST);
  fs.mkdirSync(path.join(folder, SERVING), { recursive: true });
  fs.writeFileSync(path.join(folder, SERVING, String(process.pid)), '');
  return folder;
}

if (process.argv[1] === import.meta.filename) ensureBuilt({ force: process.argv.includes('--force') });
