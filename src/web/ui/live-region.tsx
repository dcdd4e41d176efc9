import { VisuallyHidden } from '@mantine/core';
import { useEffect, useState } from 'react';
import { onAnnouncement } from '../lib/announce.ts';

/** How long a message stays in the region: long enough to be read, short enough not to be found later by browsing. */
const CLEAR_AFTER_MS = 10_000;

/**
 * The page's one polite live region. It is in the document from the start (a region added together with its text
 * is not spoken by every screen reader), and a repeated message is spoken again: the text is cleared first.
 */
export function LiveRegion() {
  const [message, setMessage] = useState('');

  useEffect(() => {
    let clear: ReturnType<typeof setTimeout> | undefined;
    let show: ReturnType<typeof setTimeout> | undefined;
    const stop = onAnnouncement((next) => {
      clearTimeout(clear);
      clearTimeout(show);
      setMessage('');
      show = setTimeout(() => {
        setMessage(next);
        clear = setTimeout(() => setMessage(''), CLEAR_AFTER_MS);
      }, 50);
    });
    return () => {
      stop();
      clearTimeout(clear);
      clearTimeout(show);
    };
  }, []);

  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="live-region">
      {message}
    </VisuallyHidden>
  );
}
