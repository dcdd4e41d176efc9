import { DEMO_ACCOUNTS } from '../shared/contract/index.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

/** Boots the service and stops it cleanly: in-flight requests finish, the database closes. */
async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const app = await buildApp({ config });

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      const timer = setTimeout(() => process.exit(1), 10_000);
      timer.unref();
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const lines = [
    `Tachyon Consumer service ready in ${Math.round(performance.now() - started)} ms`,
    `  dashboard: ${url}/`,
    `  API:       ${url}/api (default version ${config.defaultApiVersion})`,
    `  database:  ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`}`,
  ];
  if (config.demo) {
    lines.push('  demo mode: on. Demo accounts:');
    for (const account of DEMO_ACCOUNTS) lines.push(`    ${account.userName.padEnd(16)} ${account.password}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
