import { readFileSync, writeFileSync } from 'node:fs';
import { MATRIX_END, MATRIX_START, matrixTable } from '../src/server/test/permission-matrix.ts';

/** Writes the permission matrix, generated from the contract, into docs/security.md between its markers. */
const path = new URL('../docs/security.md', import.meta.url);
const doc = readFileSync(path, 'utf8');
const start = doc.indexOf(MATRIX_START);
const end = doc.indexOf(MATRIX_END);
if (start < 0 || end < start) throw new Error('docs/security.md has no permission matrix markers');
writeFileSync(path, `${doc.slice(0, start + MATRIX_START.length)}\n\n${matrixTable()}\n\n${doc.slice(end)}`);
