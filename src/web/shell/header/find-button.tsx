import { ActionIcon } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { peopleQueries } from '../../api/queries/people-queries.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { openPalette } from '../command-palette/open-palette.ts';
import classes from './find-button.module.css';

/**
 * The command palette, visible: "Find a person" (with its Ctrl K) in the header of every page, the icon alone on a
 * phone, where no keyboard shortcut opens it. Named for people only for those who may read them.
 */
export function FindButton() {
  const { session } = useSession();
  const label = endpointAccess(session, peopleQueries.list.endpoint).allowed ? 'Find a person' : 'Search';
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <button
      type="button"
      className={`mantine-focus-auto mantine-active ${ActionIcon.classes.root} ${classes.find}`}
      data-variant="default"
      aria-keyshortcuts={mac ? 'Meta+K' : 'Control+K'}
      onClick={openPalette}
      data-testid="find-button"
    >
      <IconSearch size={16} aria-hidden />
      <span className={classes.label}>{label}</span>
      <kbd className={classes.shortcut} aria-hidden>
        {mac ? '⌘K' : 'Ctrl K'}
      </kbd>
    </button>
  );
}
