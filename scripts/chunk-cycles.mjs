// Fails the build when two built chunks import each other, directly or round a loop. Chunks in a loop evaluate in
// an order where one runs before the other's exports exist: the page is blank ("e is not a function"), on every
// route, the sign-in page's too. The manual chunk groups in vite.config.ts can make one when a module shared by two
// groups lands in neither. `node scripts/chunk-cycles.mjs dist/web/assets`
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const STATIC_IMPORT = /(?:^|[;}\s])import\s*(?:[^'"`();]*?from\s*)?["']\.\/([^"']+\.js)["']/g;

/** Each loop of static imports among the chunks, as `a.js -> b.js -> a.js`. */
export function chunkCycles(sources) {
  const imports = new Map(
    [...sources].map(([name, code]) => [name, [...code.matchAll(STATIC_IMPORT)].map((m) => m[1])]),
  );
  const cycles = [];
  const state = new Map();
  const visit = (name, stack) => {
    state.set(name, 'open');
    stack.push(name);
    for (const next of imports.get(name) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next, stack);
    }
    stack.pop();
    state.set(name, 'done');
  };
  for (const name of imports.keys()) if (!state.has(name)) visit(name, []);
  return cycles;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2] ?? 'dist/web/assets';
  const names = fs.readdirSync(folder).filter((name) => name.endsWith('.js'));
  const cycles = chunkCycles(new Map(names.map((name) => [name, fs.readFileSync(path.join(folder, name), 'utf8')])));
  if (cycles.length > 0) {
    console.error(`chunks that import each other (see the groups in vite.config.ts):\n  ${cycles.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`no import loops among ${names.length} chunks in ${folder}`);
}
