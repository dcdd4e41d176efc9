import { DEMO_ACCOUNTS } from '../shared/contract/index.ts';
import { buildApp } from './app.ts';
import { ConfigError, demoExposureWarning, isLoopbackHost, loadConfig } from './config.ts';
import { DatabaseInUseError } from './db/database.ts';
import { startDraining } from './http/draining.ts';
import { createServiceLog } from './http/request-log.ts';
import { reloadTlsOnSignal, TlsLoadError } from './http/tls.ts';
import { plainHttpWarning } from './transport-config.ts';

/** How long a signalled service keeps reading requests already sent before it starts closing. */
const SHUTDOWN_GRACE_MS = 100;

/** Boots the service and stops it cleanly: in-flight requests finish, the database closes. */
async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const log = createServiceLog(config.logLevel);
  // Log lines are written asynchronously: every way out of the process writes what is still buffered first.
  const exit = (code: number) => {
    void log.close().finally(() => process.exit(code));
  };
  const app = await buildApp({ config, auditStdout: { write: log.write } }, log.logger);

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      // Readiness fails at once. On SIGTERM (an orchestrator's stop) the service then goes on serving for
      // SHUTDOWN_DRAIN_SECONDS, while load balancers notice and stop sending; Ctrl-C stops without waiting.
      startDraining(app);
      const drainMs = signal === 'SIGTERM' ? config.shutdownDrainSeconds * 1000 : 0;
      app.log.info({ signal, drainSeconds: drainMs / 1000 }, 'shutting down');
      const timer = setTimeout(() => exit(1), drainMs + 10_000);
      timer.unref();
      // Requests already sent on open connections may still sit unread, when the event loop was busy (say,
      // with a synchronous commit) as the signal came. A short grace lets them be read and become requests
      // in flight, which closing waits for, instead of being dropped with connections it takes for idle.
      // setImmediate: closing starts only after a poll phase has read the sockets, however late the timer ran.
      const close = () =>
        app.close().then(
          () => exit(0),
          (error: unknown) => {
            app.log.error({ err: error }, 'shutdown failed');
            exit(1);
          },
        );
      setTimeout(() => setImmediate(close), drainMs + SHUTDOWN_GRACE_MS);
    });
  }
  if (config.tls) reloadTlsOnSignal(app.server, config.tls, app.log);

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `${config.tls ? 'https' : 'http'}://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const lines = [
    `Tachyon Consumer service ready in ${Math.round(performance.now() - started)} ms`,
    `  dashboard: ${url}/`,
    `  API:       ${url}/api (default version ${config.defaultApiVersion})`,
    `  database:  ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${config.dataDir}`}`,
  ];
  const loopbackLinks = isLoopbackHost(new URL(config.publicUrl).hostname);
  lines.push(
    `  links:     ${config.publicUrl}${loopbackLinks ? ' (loopback: set PUBLIC_URL to the address phones open)' : ''}`,
  );
  if (config.demo) {
    lines.push('  demo mode: on (DEMO=off to turn it off). Sign in with a demo account:');
    for (const account of DEMO_ACCOUNTS) lines.push(`    ${account.userName.padEnd(16)} ${account.password}`);
  } else {
    lines.push(
      `  demo mode: off. Sign in with ${
        config.adminUserName
          ? `${config.adminUserName} (ADMIN_USERNAME, the password in ADMIN_PASSWORD)`
          : config.directory
            ? 'a directory account (LDAP_URL)'
            : 'an existing account'
      }`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const rule = '!'.repeat(78);
  for (const warning of [
    demoExposureWarning(config),
    plainHttpWarning({ ...config, loopback: isLoopbackHost(config.host) }),
  ]) {
    if (!warning) continue;
    app.log.warn(warning);
    process.stderr.write(`${rule}\n${warning}\n${rule}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError || error instanceof DatabaseInUseError || error instanceof TlsLoadError ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
});
