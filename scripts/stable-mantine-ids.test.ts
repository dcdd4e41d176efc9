// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';
import { randomId, useIsomorphicEffect } from '@mantine/hooks';
import { act, createElement, useId as useReactId, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { keepReactIds, MODULE } from './stable-mantine-ids.ts';

const file = path.resolve(import.meta.dirname, '../node_modules/@mantine/hooks/esm/use-id/use-id.mjs');

type UseId = (staticId?: string) => string;

/**
 * Evaluates a version of Mantine's module with its imports given as arguments: the same React and Mantine helpers for
 * the module as Mantine ships it and as the build rewrites it.
 */
function evaluate(code: string): UseId {
  const body = code
    .replace(/^"use client";$/m, '')
    .replace(/^import .*$/gm, '')
    .replace(/^export \{ useId\$1 as useId \};$/m, 'return useId$1;');
  if (!body.includes('return useId$1;')) throw new Error('use-id.mjs no longer exports useId as it did');
  const make = new Function('useId', 'useRef', 'useState', 'randomId', 'useIsomorphicEffect', body);
  return make(useReactId, useRef, useState, randomId, useIsomorphicEffect) as UseId;
}

const source = () => fs.readFileSync(file, 'utf8');

/** Renders a component that asks `useId` for an id, noting each render and what the page got. */
async function rendersOf(useId: UseId, staticId?: string) {
  const seen: string[] = [];
  function Labelled() {
    const id = useId(staticId);
    seen.push(id);
    return createElement('input', { id });
  }
  const container = document.createElement('div');
  const root = createRoot(container);
  // React's act() warns outside its test environment flag.
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  await act(async () => root.render(createElement(Labelled)));
  const rendered = container.querySelector('input')?.id;
  root.unmount();
  return { seen, rendered };
}

describe("Mantine's ids, kept as React made them", () => {
  it('matches the module the build transforms', () => {
    expect(MODULE.test(file)).toBe(true);
    expect(keepReactIds(source())).not.toContain('setUuid');
  });

  it("renders a component with an id once, with the id React gave it, where Mantine's renders it twice", async () => {
    const { seen, rendered } = await rendersOf(evaluate(keepReactIds(source())));
    expect(seen).toHaveLength(1);
    expect(rendered).toBe(seen[0]);
    expect(rendered).toMatch(/^mantine-_r_[0-9a-z]+_$/);
    // What the transform removes: a layout effect that swaps the id for a random one after the first commit.
    const original = await rendersOf(evaluate(source()));
    expect(original.seen).toHaveLength(2);
    expect(original.rendered).not.toBe(original.seen[0]);
  });

  it('still returns an id given by the caller', async () => {
    const { rendered } = await rendersOf(evaluate(keepReactIds(source())), 'search-field');
    expect(rendered).toBe('search-field');
  });

  it('stops the build when Mantine changes the module', () => {
    expect(() => keepReactIds('export function useId() { return "x"; }')).toThrow(/Mantine changed use-id\.mjs/);
  });
});
