import { buildApp } from './app.ts';
import { ConfigError, demoExposureWarning, loadConfig } from './config.ts';
import { DatabaseInUseError } from './db/database.ts';
import { isLoopbackHost } from './http/guards/allowed-hosts.ts';
import { startDraining } from './http/listener/draining.ts';
import { reloadTlsOnSignal, TlsLoadError } from './http/listener/tls.ts';
import { createServiceLog } from './http/observability/request-log.ts';
import { startBanner } from './start-banner.ts';
import { plainHttpWarning } from './transport-config.ts';

/** AUDIT_LOG when it names a file (which SIGHUP reopens); null for none or standard output. */
const auditFileOf = (config: { auditLog: string | null }) =>
  config.auditLog !== null && config.auditLog !== 'stdout' ? config.auditLog : null;

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
  // SIGHUP reloads the certificate and reopens the audit file, each where there is one. It is always handled: unhandled,
  // Node's default for it ends the process, so a reload sent by habit (logrotate, systemctl reload) would stop it.
  const reloadable = [config.tls && 'the TLS certificate', auditFileOf(config) && 'the AUDIT_LOG file'].filter(Boolean);
  process.on('SIGHUP', () => {
    if (reloadable.length === 0)
      app.log.info('SIGHUP: nothing needed reloading (no TLS certificate, no AUDIT_LOG file)');
    else app.log.info(`SIGHUP: reloading ${reloadable.join(' and ')}`);
  });

  // Fastify's own line names http:// for a server it did not make; this one serves HTTPS when it has a certificate.
  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (address) =>
      `Server listening at ${config.tls ? address.replace(/^http:/, 'https:') : address}`,
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // PORT=0 takes a free port: the default PUBLIC_URL (enrolment links) names the one taken.
  if (config.publicUrl.endsWith(':0')) config.publicUrl = `${config.publicUrl.slice(0, -2)}:${port}`;
  const lines = startBanner(config, port, Math.round(performance.now() - started));
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
