import { useEffect, useState } from 'react';
import { loadUserAgentParser, type UserAgentParser } from './device-description.ts';

/**
 * The User-Agent parser once it has loaded (null until then, or while `wanted` is false): it is a chunk of its own,
 * fetched only by a screen that has a User-Agent to show.
 */
export function useUserAgentParser(wanted = true): UserAgentParser | null {
  const [parser, setParser] = useState<UserAgentParser | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    loadUserAgentParser()
      .then((loaded) => current && setParser(() => loaded))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [wanted]);
  return parser;
}
