import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type ApiVersion, endpoints, type Permission } from '../../../shared/contract/index.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { PermissionButton } from '../permission-button.tsx';
import { EndpointGate } from './endpoint-gate.tsx';

vi.mock('@tanstack/react-router', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@tanstack/react-router')>()),
  // The notices link to Settings; a plain anchor stands in for the router here.
  createLink: () => (props: { children?: React.ReactNode }) => <a href="/settings">{props.children}</a>,
}));

function signIn(permissions: Permission[], apiVersion: ApiVersion = '3.3') {
  signInAs(permissions, { userName: 'DEMO\\someone', apiVersion });
}

describe('PermissionButton', () => {
  it('works normally when the permission is there', async () => {
    signIn(['Read', 'Write']);
    const onClick = vi.fn();
    const { user } = renderWithProviders(
      <PermissionButton endpoint={endpoints.authorizeDevice} onClick={onClick}>
        Approve
      </PermissionButton>,
    );
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onClick).toHaveBeenCalled();
  });

  it('is disabled, does nothing and names the missing permission without it', async () => {
    signIn(['Read']);
    const onClick = vi.fn();
    const { user } = renderWithProviders(
      <PermissionButton endpoint={endpoints.authorizeDevice} onClick={onClick}>
        Approve
      </PermissionButton>,
    );
    const button = screen.getByRole('button', { name: 'Approve' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription('Requires Write on Security');
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('shows the reason as a tooltip to a keyboard user, and keeps the focus on the button', async () => {
    signIn(['Read']);
    const { user } = renderWithProviders(
      <PermissionButton endpoint={endpoints.authorizeDevice} onClick={vi.fn()}>
        Approve
      </PermissionButton>,
    );
    await user.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Requires Write on Security');
    expect(screen.getByRole('button', { name: 'Approve' })).toHaveFocus();
  });
});

describe('EndpointGate', () => {
  it('shows the page when the endpoint is there and readable', () => {
    signIn(['Read']);
    renderWithProviders(
      <EndpointGate query={{ endpoint: endpoints.listPushMessageUsers }} feature="Push users">
        <p>the list</p>
      </EndpointGate>,
    );
    expect(screen.getByText('the list')).toBeInTheDocument();
  });

  it('says the endpoint was removed in 4.0 instead of rendering the page', () => {
    signIn(['Read', 'Write'], '4.0');
    renderWithProviders(
      <EndpointGate query={{ endpoint: endpoints.listPushMessageUsers }} feature="Push users">
        <p>the list</p>
      </EndpointGate>,
    );
    expect(screen.queryByText('the list')).not.toBeInTheDocument();
    expect(screen.getByText('Push users: removed in API 4.0')).toBeInTheDocument();
  });

  it('explains a missing Read permission', () => {
    signIn([]);
    renderWithProviders(
      <EndpointGate query={{ endpoint: endpoints.listAuthorizationRequests }} feature="Authorization requests">
        <p>the list</p>
      </EndpointGate>,
    );
    expect(screen.getByText('You cannot view authorization requests')).toBeInTheDocument();
    expect(screen.getByText(/requires the Read permission on Security, which DEMO\\someone/)).toBeInTheDocument();
  });
});
