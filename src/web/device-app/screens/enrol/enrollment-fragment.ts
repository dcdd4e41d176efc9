import { ENROLLMENT_FRAGMENT_PARAMETER } from '../../../../shared/contract/index.ts';

/** The code of an enrolment link (`/device#enrol=…`): in the fragment, so it never reaches a server or a Referer. */
export function readEnrollmentCode(hash: string = window.location.hash): string | null {
  const code = new URLSearchParams(hash.replace(/^#/, '')).get(ENROLLMENT_FRAGMENT_PARAMETER)?.trim();
  return code ? code : null;
}

/** Takes the used (or refused) code out of the address, so history and a bookmark do not keep it. */
export function clearEnrollmentFragment(): void {
  const { pathname, search, hash } = window.location;
  if (!hash) return;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
}
