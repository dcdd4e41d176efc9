// `npm start`: builds only when a source changed since the last build (scripts/build.mjs: aside, then swapped in),
// then runs the service in this process from the build's real folder, noted as served so that no later build removes
// it while this process runs. Its modules and its dashboard both come from that folder, whatever `dist` points to next.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, markServing } from './build.mjs';

ensureBuilt();
const build = markServing();
process.env.WEB_ROOT ??= path.join(build, 'web');
await import(pathToFileURL(path.join(build, 'node', 'server', 'server.js')).href);
