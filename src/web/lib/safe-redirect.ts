const HOME = '/authorization-requests';

/** Only same-origin paths: `?redirect=` must never send a person to another site after signing in. */
export function safeRedirect(target: string | undefined | null): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return HOME;
  if (target === '/login' || target.startsWith('/login?')) return HOME;
  return target;
}
