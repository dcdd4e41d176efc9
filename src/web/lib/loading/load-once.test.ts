import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './load-once.ts';

describe('loadOnce', () => {
  it('loads once for every caller, and has the value at hand once it arrived', async () => {
    const importer = vi.fn(async () => 'code');
    const code = loadOnce(importer);
    expect(code.value).toBeUndefined();
    const [first, second] = await Promise.all([code.load(), code.load()]);
    expect([first, second, code.value]).toEqual(['code', 'code', 'code']);
    await code.load();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('starts a failed load again at the next call', async () => {
    const importer = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce('code');
    const code = loadOnce<string>(importer);
    await expect(code.load()).rejects.toThrow('offline');
    expect(code.value).toBeUndefined();
    await expect(code.load()).resolves.toBe('code');
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
