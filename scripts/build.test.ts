import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../src/shared/contract/index.ts';
import { BUILDS, buildEnvironment, builtStamp, DIST, ensureBuilt, inputStamp, prune, swapIn } from './build.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the input stamp', () => {
  let root = '';
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(tmpdir(), 'build-stamp-'));
    for (const folder of ['src', 'public', 'scripts']) fs.mkdirSync(path.join(root, folder));
    fs.writeFileSync(path.join(root, 'src', 'page.ts'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(root, 'src', 'page.test.ts'), 'test\n');
    fs.writeFileSync(path.join(root, 'index.html'), '<html></html>\n');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is the same for the same sources, and changes with a source, not with a test', () => {
    const first = inputStamp(root);
    expect(inputStamp(root)).toBe(first);
    fs.writeFileSync(path.join(root, 'src', 'page.test.ts'), 'another test\n');
    expect(inputStamp(root)).toBe(first);
    fs.writeFileSync(path.join(root, 'src', 'page.ts'), 'export const a = 2;\n');
    expect(inputStamp(root)).not.toBe(first);
    const second = inputStamp(root);
    fs.writeFileSync(path.join(root, 'index.html'), '<html><body></body></html>\n');
    expect(inputStamp(root)).not.toBe(second);
  });
});

interface Started {
  child: ChildProcess;
  origin: string;
  output: () => string;
}

/** `npm start` as a person runs it (scripts/start.mjs), in demo mode, on a free port and a data folder of its own. */
async function npmStart(dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, PASSWORD_HASH_COST: '1024' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in time:\n${output}`)), 60_000);
    const check = () => {
      const found = /API:\s+(http:\/\/[^\s/]+)\/api/.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return { child, origin, output: () => output };
}

const stop = (started: Started | null) =>
  new Promise<void>((resolve) => {
    if (!started || started.child.exitCode !== null) return resolve();
    started.child.once('exit', () => resolve());
    started.child.kill('SIGINT');
  });

const admin = DEMO_ACCOUNTS.find((account) => account.role === 'Admin');

async function signIn(origin: string): Promise<number> {
  const response = await fetch(`${origin}/api/Consumer/Authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ UserName: admin?.userName, Password: admin?.password }),
  });
  return response.status;
}

describe('the build', () => {
  it('is a production build whatever NODE_ENV the caller runs with', () => {
    expect(buildEnvironment({ NODE_ENV: 'test', PATH: '/usr/bin' })).toEqual({
      NODE_ENV: 'production',
      PATH: '/usr/bin',
    });
  });
});

describe('npm start and a build made while a service runs', () => {
  const dataDirs = [fs.mkdtempSync(path.join(tmpdir(), 'start-a-')), fs.mkdtempSync(path.join(tmpdir(), 'start-b-'))];
  let first: Started | null = null;
  let second: Started | null = null;
  let original = '';
  let next = '';

  beforeAll(() => {
    // Builds only if a source changed since the last build (then this takes a minute or two).
    ensureBuilt({ log: () => {} });
    original = fs.realpathSync(DIST);
  }, 300_000);

  afterAll(async () => {
    await stop(first);
    await stop(second);
    // The build this test made is set aside again, and the one before it is current again.
    if (original) swapIn(original);
    if (next) fs.rmSync(next, { recursive: true, force: true });
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves its own build to the end, while a second start serves the new one', async () => {
    first = await npmStart(dataDirs[0] as string);
    expect(first.output()).toContain('is current (no source changed since): not rebuilding');
    const index = await (await fetch(`${first.origin}/`)).text();
    const asset = /"(\/assets\/[^"]+\.js)"/.exec(index)?.[1];
    expect(asset).toBeDefined();
    // React's production build, though a test runner may have made it (NODE_ENV=test): the development build greets
    // the console with its DevTools advert.
    const entry = /name="app-entry" id="app-entry" content="([^"]+)"/.exec(index)?.[1];
    expect(entry).toBeDefined();
    // React DOM is in a chunk of its own, evaluated before the entry (app-stages).
    const stages = /name="app-stages" id="app-stages" content="([^"]+)"/.exec(index)?.[1]?.split(' ') ?? [];
    const origin = first.origin;
    const appCode = await Promise.all([entry, ...stages].map(async (file) => (await fetch(`${origin}${file}`)).text()));
    expect(appCode.join('\n')).toContain('react.transitional.element');
    expect(appCode.join('\n')).not.toContain('Download the React DevTools');
    expect(await signIn(first.origin)).toBe(200);

    // A new version arrives while the first service runs: built aside (here, the build copied, with a file of its
    // own), swapped in, and the builds nobody needs removed.
    next = path.join(BUILDS, `${builtStamp()}-${Date.now()}-next`);
    fs.cpSync(original, next, { recursive: true, filter: (from) => !from.includes(`${path.sep}serving`) });
    fs.writeFileSync(path.join(next, 'web', 'new-version.txt'), 'the new version\n');
    prune(swapIn(next));
    expect(fs.existsSync(original), 'the build a running service serves is kept').toBe(true);

    // The first service still signs in and still serves its own dashboard and assets, not the new build's files.
    expect(await signIn(first.origin)).toBe(200);
    expect(await (await fetch(`${first.origin}/`)).text()).toBe(index);
    expect((await fetch(`${first.origin}${asset}`)).status).toBe(200);
    expect((await fetch(`${first.origin}/new-version.txt`)).headers.get('content-type')).toContain('text/html');

    // A second `npm start` of the same sources builds nothing and serves the new build.
    second = await npmStart(dataDirs[1] as string);
    expect(second.output()).toContain('not rebuilding');
    expect(await (await fetch(`${second.origin}/new-version.txt`)).text()).toBe('the new version\n');
    expect(await signIn(second.origin)).toBe(200);
    expect(await signIn(first.origin)).toBe(200);
  }, 120_000);
});
