import { screen } from '@testing-library/react';
import { Component, type ComponentType, type ReactNode, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders, routedFetch } from '../../test/render.tsx';
import { lazyChunk } from './lazy-chunk.tsx';

/** What Safari says when a dynamic import's file does not arrive (Chromium's words name the file: the browser test). */
const chunkFailure = () => new TypeError('Importing a module script failed.');

function Dialog({ name }: { name: string; onClose?: () => void }) {
  return <p>Deciding on {name}</p>;
}

/** A page with a lazily loaded part: its own words stay whatever becomes of the part. */
function page(Part: ComponentType<{ name: string; onClose?: () => void }>, onClose = () => {}) {
  return (
    <main>
      <h1>The queue</h1>
      <Suspense fallback={null}>
        <Part name="request #7" onClose={onClose} />
      </Suspense>
    </main>
  );
}

afterEach(() => vi.unstubAllGlobals());

/** The route's error boundary, as the router has one. */
class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>Caught: {this.state.error.message}</p> : this.props.children;
  }
}

describe('a lazily loaded part whose code does not arrive', () => {
  it('keeps the page and says the server cannot be reached; Try again loads it once the server is back', async () => {
    const offline = new TypeError('Failed to fetch');
    let serverUp = false;
    vi.stubGlobal(
      'fetch',
      routedFetch({
        'GET /api/Consumer/Version': () => {
          if (!serverUp) throw offline;
          return json({ DefaultVersion: '3.3', SupportedVersions: ['3.3'] });
        },
      }).fetch,
    );
    let loads = 0;
    const Part = lazyChunk(
      async () => {
        loads++;
        if (!serverUp) throw chunkFailure();
        return { Dialog };
      },
      (module) => module.Dialog,
    );
    const { user } = renderWithProviders(page(Part));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Cannot reach the server: try again');
    expect(screen.getByRole('heading', { name: 'The queue' })).toBeInTheDocument();

    serverUp = true;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Deciding on request #7')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(loads).toBeGreaterThanOrEqual(3);
  });

  it('tries again by itself while the server is away', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let serverUp = false;
      vi.stubGlobal('fetch', async () => {
        if (!serverUp) throw new TypeError('Failed to fetch');
        return json({ DefaultVersion: '3.3' });
      });
      const Part = lazyChunk(
        async () => {
          if (!serverUp) throw chunkFailure();
          return { Dialog };
        },
        (module) => module.Dialog,
      );
      renderWithProviders(page(Part));
      expect(await screen.findByRole('alert')).toHaveTextContent('Cannot reach the server');
      serverUp = true;
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await screen.findByText('Deciding on request #7')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says a new version is ready when the server answers but the file is gone, and offers a reload', async () => {
    vi.stubGlobal('fetch', routedFetch({ 'GET /api/Consumer/Version': json({ DefaultVersion: '3.3' }) }).fetch);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const Part = lazyChunk(
      async (): Promise<{ Dialog: typeof Dialog }> => {
        throw chunkFailure();
      },
      (module) => module.Dialog,
    );
    const onClose = vi.fn();
    const { user } = renderWithProviders(page(Part, onClose));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('A new version is ready: reload');
    expect(screen.getByRole('heading', { name: 'The queue' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('leaves any other error to the error boundary', async () => {
    const Part = lazyChunk(
      async (): Promise<{ Dialog: typeof Dialog }> => {
        throw new Error('a bug in the module');
      },
      (module) => module.Dialog,
    );
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      renderWithProviders(<Boundary>{page(Part)}</Boundary>);
      expect(await screen.findByText('Caught: a bug in the module')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    } finally {
      errors.mockRestore();
    }
  });
});
