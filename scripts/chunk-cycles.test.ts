import { describe, expect, it } from 'vitest';
import { chunkCycles } from './chunk-cycles.mjs';

describe('chunkCycles', () => {
  it('finds two chunks that import each other, through a third as well', () => {
    const sources = new Map([
      ['index-a.js', 'import{a as e}from"./shared-b.js";import"./lazy-d.js";'],
      ['shared-b.js', 'import{r as e}from"./rolldown-runtime.js";import{o as t}from"./proof-c.js";export{e as a};'],
      ['proof-c.js', 'import{a as n}from"./shared-b.js";var g=1;export{g as o};'],
      ['lazy-d.js', 'const m=()=>import("./shared-b.js");export{m};'],
      ['rolldown-runtime.js', 'export{};'],
    ]);
    expect(chunkCycles(sources)).toEqual(['shared-b.js -> proof-c.js -> shared-b.js']);
  });

  it('passes chunks whose imports only go one way (a dynamic import back is no loop)', () => {
    const sources = new Map([
      ['index-a.js', 'import{a}from"./shared-b.js";const l=()=>import("./lazy-c.js");'],
      ['shared-b.js', 'export const a=1;'],
      ['lazy-c.js', 'import{a}from"./shared-b.js";import"./index-a.js";'],
    ]);
    expect(chunkCycles(sources)).toEqual([]);
  });
});
