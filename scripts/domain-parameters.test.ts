import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A domain function beyond a few parameters takes one named input object (`{ db, clock, changes, … }`): a call then
// says what each value is, and a boolean or an Id in the wrong place cannot pass unseen (docs/architecture.md, "The
// domain's areas, in order"). This keeps any function or method of src/server/domain from growing past MOST positional
// parameters again.
const repo = join(import.meta.dirname, '..');
const domain = join(repo, 'src', 'server', 'domain');
const MOST = 5;

const isSource = (name: string) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('-test.ts');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : isSource(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** Every function and method of a source with more than MOST parameters, by name and count. */
function tooManyParameters(fileName: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isFunctionExpression(node) ||
        ts.isArrowFunction(node) ||
        ts.isConstructorDeclaration(node)) &&
      node.parameters.length > MOST
    ) {
      const name =
        'name' in node && node.name
          ? node.name.getText()
          : ts.isConstructorDeclaration(node)
            ? 'constructor'
            : '(anonymous)';
      found.push(`${name} (${node.parameters.length})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true));
  return found;
}

describe('parameters of the domain', () => {
  it(`finds a function with more than ${MOST} positional parameters`, () => {
    const probe =
      'export async function submit(db: D, clock: C, id: number, scheduled: boolean, token: string, x: X) {}';
    expect(tooManyParameters('probe.ts', probe)).toEqual(['submit (6)']);
    expect(tooManyParameters('probe.ts', 'export function submit({ a, b, c, d, e, f }: Input) {}')).toEqual([]);
  });

  for (const file of sources(domain)) {
    it(`${relative(repo, file)}: no function takes more than ${MOST} positional parameters`, () => {
      expect(tooManyParameters(file, readFileSync(file, 'utf8'))).toEqual([]);
    });
  }
});
