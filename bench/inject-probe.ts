import Fastify from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';

const config = { ...loadConfig({}), demo: true, webRoot: null, logLevel: 'warn' as const };
const app = await buildApp({ config, database: openDatabase({ sqliteFile: '/tmp/probe-' + process.pid + '.sqlite' }) });
const login = await app.inject({
  method: 'POST',
  url: '/api/Consumer/Authentication',
  payload: { UserName: 'DEMO\\admin', Password: 'Admin#2026' },
});
const token = login.json().Token;
const bare = Fastify({ logger: false });
bare.get('/c', async () => ({
  Id: 1,
  DeviceType: 'iOS',
  UserName: 'x',
  CreatedTimeStampUtc: 'a',
  ModifiedTimestampUtc: 'b',
  Status: 1,
}));
await bare.ready();
async function time(label: string, f: () => Promise<unknown>) {
  for (let i = 0; i < 3000; i++) await f();
  const n = 20000;
  const t = performance.now();
  for (let i = 0; i < n; i++) await f();
  console.log(label, (((performance.now() - t) * 1000) / n).toFixed(1), 'us/req');
}
for (let r = 0; r < 2; r++) {
  await time('bare', () => bare.inject({ method: 'GET', url: '/c' }));
  await time('ours', () =>
    app.inject({
      method: 'GET',
      url: '/api/Consumer/PushMessageUsers/1',
      headers: { authorization: `Bearer ${token}` },
    }),
  );
}
await app.close();
