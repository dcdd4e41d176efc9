// The GET budget's floor: Fastify 5 doing the duties every authenticated read must do, and nothing of the service's
// own: the service's security headers (its Helmet configuration), its one-line asynchronous request log, a bearer
// token looked up in a Map, and the endpoint's prepared better-sqlite3 select (the push user by id, with its device's
// enrolment times).
// Run in its own process like the service: `node --import tsx bench/duty-floor-server.ts` with PORT, FLOOR_DB (a copy
// of the service's database) and FLOOR_TOKEN.
import SQLite from 'better-sqlite3';
import Fastify, { LogController } from 'fastify';
import { toPushMessageUser } from '../src/server/domain/consumer/push-users.ts';
import { securityHeaders } from '../src/server/http/guards/security-headers.ts';
import { createServiceLog, registerRequestLog } from '../src/server/http/observability/request-log.ts';

const { FLOOR_DB, FLOOR_TOKEN, PORT } = process.env;
if (!FLOOR_DB || !FLOOR_TOKEN) throw new Error('FLOOR_DB and FLOOR_TOKEN are required');

const log = createServiceLog(process.env.LOG_LEVEL ?? 'info');
// Fastify's own two lines per request off, as in the service (app.ts): the one line below instead.
const app = Fastify({ logger: log.logger, logController: new LogController({ disableRequestLogging: true }) });
const { api } = securityHeaders([]);
app.addHook('onRequest', (_request, reply, done) => {
  reply.headers(api);
  done();
});
registerRequestLog(app);

const db = new SQLite(FLOOR_DB, { readonly: true });
// The endpoint's one statement: the push user, with when its device enrolled and was last seen.
const select = db.prepare<
  [number],
  Parameters<typeof toPushMessageUser>[0] & { enrolled_at: string | null; last_seen_at: string | null }
>(
  `select id, device_type, user_name, created_at, modified_at, status, manufacturer, model, os_version,
     (select created_at from devices where push_message_user_id = p.id order by id desc limit 1) as enrolled_at,
     (select last_seen_at from devices where push_message_user_id = p.id order by id desc limit 1) as last_seen_at
   from push_message_users p where id = ?`,
);
const tokens = new Map([[FLOOR_TOKEN, { userName: 'BENCH\\admin' }]]);

app.get<{ Params: { id: string } }>('/PushMessageUsers/:id', async (request, reply) => {
  const header = request.headers.authorization;
  const principal = header?.startsWith('Bearer ') ? tokens.get(header.slice(7)) : undefined;
  if (!principal) return reply.code(401).send({ title: 'Unauthorized' });
  const row = select.get(Number(request.params.id));
  if (!row) return reply.code(404).send({ title: 'Not found' });
  return {
    ...toPushMessageUser(row),
    EnrolledTimestampUtc: row.enrolled_at,
    LastSeenTimestampUtc: row.last_seen_at,
  };
});
app.get('/ready', async () => ({ ready: true }));

await app.listen({ port: Number(PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => log.close())
    .then(() => process.exit(0));
});
