import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_REQUEST_HEADER, LoginResult } from '../../shared/contract/index.ts';
import { streamsPerProcessFor } from '../lib/open-file-limit.ts';
import { ADMIN } from '../test/harness.ts';
import { ensureServerBuilt, type ServiceProcess, startService, stopService } from '../test/service-process.ts';

/**
 * A process at its open-file limit accepts no connection at all. The process's stream cap is derived from that
 * limit (half of it), so a real service allowed only 512 open files refuses streams past 256 with a 429, and still
 * answers its health checks and signs people in.
 */
// 256 is too few for Node to load the service's modules at start (EMFILE); 512 is a limit it starts under.
const OPEN_FILES = 512;

describe.runIf(process.platform === 'linux')(`the built service under ulimit -n ${OPEN_FILES}`, () => {
  let dataDir: string;
  let service: ServiceProcess | null = null;

  beforeAll(async () => {
    ensureServerBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-ulimit-'));
    service = await startService(
      {
        DATA_DIR: dataDir,
        DEMO: 'on',
        PASSWORD_HASH_COST: '1024',
        LOGIN_RATE_PER_MINUTE: '100000',
        // Only the process's cap is under test: one account may hold every stream.
        LIVE_STREAMS_PER_ACCOUNT: '10000',
      },
      30_000,
      { openFiles: OPEN_FILES },
    );
  }, 180_000);

  afterAll(async () => {
    await stopService(service);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = () => {
    if (!service) throw new Error('not started');
    return service.api;
  };

  async function signIn(): Promise<string> {
    const response = await fetch(`${api()}/Consumer/Authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: ADMIN[0], Password: ADMIN[1] }),
    });
    expect(response.status, service?.output()).toBe(200);
    return LoginResult.parse(await response.json()).Token;
  }

  const stream = (token: string) =>
    fetch(`${api()}/Consumer/Events`, {
      headers: { authorization: `Bearer ${token}`, [BACKGROUND_REQUEST_HEADER]: '1' },
    });

  it('refuses streams past half its open files, and still answers health and sign-in', async () => {
    const cap = streamsPerProcessFor(OPEN_FILES);
    expect(cap).toBe(256);
    // The answers themselves are kept, not only their bodies: fetch cancels the body of an answer once that answer is
    // garbage collected, which closed streams mid-test on a busy machine and let the service admit more.
    const open: Response[] = [];
    try {
      let token = await signIn();
      let refusal: Response | null = null;
      // Five a session (a new session then): at most two tries a stream.
      for (let tries = 0; tries < 2 * cap + 10 && refusal === null; tries += 1) {
        const response = await stream(token);
        if (response.status === 200 && response.body) {
          open.push(response);
        } else if (response.status === 429 && /service has/.test(await response.clone().text())) {
          refusal = response;
        } else if (response.status === 429) {
          token = await signIn();
        } else {
          throw new Error(`stream answered ${response.status}: ${await response.text()}\n${service?.output()}`);
        }
      }
      expect(open).toHaveLength(cap);
      if (!refusal) throw new Error(`no stream was refused past ${cap}`);
      expect(((await refusal.json()) as { detail: string }).detail).toMatch(/service has 256 live streams open/);

      // Past the cap, the process still has files for everything else.
      const live = await fetch(`${api()}/health/live`);
      expect(live.status).toBe(200);
      const ready = await fetch(`${api()}/health/ready`);
      expect(ready.status, await ready.text()).toBe(200);
      expect(await signIn()).toMatch(/\S/);
    } finally {
      for (const response of open) await response.body?.cancel().catch(() => undefined);
    }
  }, 120_000);
});
