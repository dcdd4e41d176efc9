import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useLiveChanges } from '../api/live/use-live-changes.ts';
import { StepUpHost } from '../entities/second-factor/step-up-host.tsx';
import { useSession } from '../session/session-context.tsx';
import { SessionKeeper } from '../session/session-keeper.tsx';
import classes from './app-layout.module.css';
import { PaletteHost } from './command-palette/palette-host.tsx';
import { AppHeader } from './header/app-header.tsx';
import { AppNavbar } from './navigation/app-navbar.tsx';

export function AppLayout({ children }: { children: ReactNode }) {
  const { session } = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  // One live subscription for every signed-in page: each change goes into the cache the pages read.
  useLiveChanges();
  // The session can vanish under a mounted page (401 elsewhere); the router is already on its way to /login.
  if (!session) return null;
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 280, breakpoint: 'md', collapsed: { mobile: !opened } }}
      // Phones keep the width for the cards.
      padding={{ base: 'sm', sm: 'lg' }}
    >
      {/* The first Tab of every page: past the header and the navigation, straight to the page's content. */}
      <a href="#main-content" className={classes.skip}>
        Skip to content
      </a>
      <AppShell.Header>
        <AppHeader session={session} navbarOpened={opened} onToggleNavbar={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        {/* Scrolls on a short window without a scrollbar, like Mantine's ScrollArea type="never" did, without its
            measuring and state updates in every signed-in page's first render. */}
        <div style={{ minHeight: 0, overflow: 'auto', scrollbarWidth: 'none' }}>
          <AppNavbar onNavigate={close} />
        </div>
      </AppShell.Navbar>
      <AppShell.Main bg="var(--app-main-bg)">
        <div id="main-content" tabIndex={-1} style={{ maxWidth: 1200, margin: '0 auto', outline: 'none' }}>
          {children}
        </div>
        <PaletteHost />
        <SessionKeeper />
        <StepUpHost />
      </AppShell.Main>
    </AppShell>
  );
}
