import { render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { useKeepFocus } from './use-keep-focus.ts';

let open = true;
const isOpen = () => open;

function Page() {
  const search = useRef<HTMLInputElement>(null);
  useKeepFocus(search, isOpen);
  return (
    <>
      <button type="button">Close the drawer</button>
      <div role="dialog" aria-label="Palette">
        <input ref={search} aria-label="Search" />
        <button type="button">An action</button>
      </div>
    </>
  );
}

describe('useKeepFocus', () => {
  it('brings focus that a late dialog takes back to the open one, and lets it move inside or once closed', () => {
    open = true;
    render(<Page />);
    const search = screen.getByRole('textbox', { name: 'Search' });
    search.focus();
    // A drawer arriving late moves focus to its close button: it comes back.
    screen.getByRole('button', { name: 'Close the drawer' }).focus();
    expect(document.activeElement).toBe(search);
    // Inside the dialog, focus goes where it is sent.
    screen.getByRole('button', { name: 'An action' }).focus();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'An action' }));
    // Closed (or closing), it keeps nothing.
    open = false;
    screen.getByRole('button', { name: 'Close the drawer' }).focus();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close the drawer' }));
  });
});
