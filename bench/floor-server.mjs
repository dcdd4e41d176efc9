// The bare floor, reported beside the GET budget: a Fastify route returning a constant object, in its own process.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const user = {
  Id: 1,
  DeviceType: 'iOS',
  UserName: 'DEMO\\admin',
  CreatedTimeStampUtc: '2026-01-01 00:00:00.000',
  ModifiedTimestampUtc: '2026-01-01 00:00:00.000',
  Status: 1,
};
app.get('/constant', async () => user);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
