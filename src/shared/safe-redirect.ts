const HOME = '/authorization-requests';

/**
 * Only same-origin paths: `?redirect=` must never send a person to another site after signing in (the sign-in page,
 * and the single sign-on start, which keeps it while the person is at the provider).
 */
export function safeRedirect(target: string | undefined | null): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return HOME;
  // Browsers drop tabs and line breaks from URLs: "/\t/evil.example" would become "//evil.example".
  if (/[\s\p{Cc}]/u.test(target)) return HOME;
  if (target === '/login' || target.startsWith('/login?')) return HOME;
  return target;
}
