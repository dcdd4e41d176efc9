import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { inRouter, renderWithProviders } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { PAGES } from '../../wiring/pages.tsx';
import { NotFoundState } from './not-found-state.tsx';

describe('NotFoundState', () => {
  it('leads a missing push user back to Push users, not to the first page', async () => {
    signInAs(['Read', 'Write']);
    renderWithProviders(inRouter(<NotFoundState what="push user" back={PAGES.pushUsers} />));
    expect(await screen.findByRole('heading', { name: 'No such push user' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to push users' })).toHaveAttribute('href', '/push-users');
    expect(screen.queryByRole('link', { name: 'Go to authorization requests' })).not.toBeInTheDocument();
  });

  it('without a list to go back to, offers the first page the person can use', async () => {
    signInAs(['Read', 'Write']);
    renderWithProviders(inRouter(<NotFoundState />));
    expect(await screen.findByRole('link', { name: /^Go to / })).toBeInTheDocument();
  });
});
