import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { $ZodObject, $ZodString } from 'zod/v4/core';
import { deferred } from './deferred.ts';

/** Counts the zod schemas and checks built while `run` runs: each defines its `_zod` internals once. */
async function schemasBuiltBy(run: () => Promise<unknown>) {
  const define = Object.defineProperty;
  let built = 0;
  const counting = (target: object, key: PropertyKey, descriptor: PropertyDescriptor) => {
    if (key === '_zod') built++;
    return define(target, key, descriptor);
  };
  Object.defineProperty = counting as typeof Object.defineProperty;
  try {
    await run();
  } finally {
    Object.defineProperty = define;
  }
  return built;
}

describe('deferred schemas', () => {
  afterEach(() => {
    vi.resetModules();
  });

  it('builds a schema the first time it is used, and once', () => {
    const build = vi.fn(() => z.string().check(z.maxLength(3)));
    const Short = deferred(build);
    expect(build).not.toHaveBeenCalled();
    expect(Short.safeParse('abc').success).toBe(true);
    expect(Short.safeParse('abcd').success).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('is the schema to zod: composed, extended, checked, recognised and described as the same', () => {
    const Year = deferred(() => z.string().check(z.regex(/^\d{4}$/, 'expected a year')));
    const Event = deferred(() => z.object({ Id: z.int(), Year }));
    const Named = deferred(() => z.extend(Event, { Name: z.optional(z.string()) }));
    const plainEvent = z.object({ Id: z.int(), Year: z.string().check(z.regex(/^\d{4}$/, 'expected a year')) });
    const plainNamed = z.extend(plainEvent, { Name: z.optional(z.string()) });

    expect(Named.parse({ Id: 1, Year: '2026', Name: 'x' })).toEqual({ Id: 1, Year: '2026', Name: 'x' });
    expect(z.array(Named).safeParse([{ Id: 1, Year: '26' }]).error?.issues).toEqual(
      z.array(plainNamed).safeParse([{ Id: 1, Year: '26' }]).error?.issues,
    );
    expect(Object.keys(Named.shape)).toEqual(['Id', 'Year', 'Name']);
    expect(Named).toBeInstanceOf($ZodObject);
    expect(Year).toBeInstanceOf($ZodString);
    expect(z.pick(Event, { Id: true }).parse({ Id: 2, Year: 'ignored' })).toEqual({ Id: 2 });
    expect(z.toJSONSchema(z.array(Named))).toEqual(z.toJSONSchema(z.array(plainNamed)));
  });

  it('keeps the contract from building any schema when it is imported', async () => {
    // zod's own modules first: what they build is not the contract's.
    await import('zod/mini');
    vi.resetModules();
    const built = await schemasBuiltBy(() => import('./endpoints.ts'));
    expect(built).toBe(0);
    // Used, they are built: the count above is not blind.
    const { endpoints } = await import('./endpoints.ts');
    const used = await schemasBuiltBy(async () => endpoints.listPeople.response?.safeParse([]));
    expect(used).toBeGreaterThan(0);
  });
});
