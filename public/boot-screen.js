// Picks the screen index.html shows while the app's code downloads: the sign-in page's outline, or the signed-in
// layout with the opened page's header. The page is then real text and layout from the first bytes instead of blank
// until the JavaScript has run. The app replaces it on its first render. A file rather than an inline script: the
// service's CSP allows only the app's own scripts.
(() => {
  try {
    const path = window.location.pathname;
    // The session key is SESSION_STORAGE_KEY (src/shared/stored-session.ts; a test keeps the two equal); without a
    // session every page opens the sign-in page.
    const signedIn = window.sessionStorage.getItem('tachyon.session') !== null;
    // Settings is reachable signed out too, outside both layouts: signed out it has no outline.
    const screen =
      path === '/settings' ? (signedIn ? 'shell' : 'none') : path === '/login' || !signedIn ? 'sign-in' : 'shell';
    document.documentElement.setAttribute('data-boot', screen);
    // In the signed-in layout, the opened page's header (scripts/page-outlines.ts writes them and this table).
    const outlines = document.getElementById('page-outlines');
    if (screen === 'shell' && outlines) {
      const match = JSON.parse(outlines.textContent).find(([pattern]) => new RegExp(pattern).test(path));
      if (match) document.documentElement.setAttribute('data-boot-page', match[1]);
    }
    // At an IP address, where browsers refuse passkeys, the sign-in methods outline says so as the page does
    // (passkeyAddressFor in src/web/lib/devices/loopback-url.ts; a test keeps the two alike): which of its note's two
    // variants shows, and the address its words name (written by CSS from these properties: the outline is parsed
    // after this script).
    const host = window.location.hostname.replace(/^\[|\]$/g, '');
    if (screen === 'shell' && (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':'))) {
      const loopback = /^127\./.test(host) || host === '::1';
      const root = document.documentElement;
      root.setAttribute('data-boot-passkeys', loopback ? 'loopback' : 'ip');
      root.style.setProperty('--boot-host', JSON.stringify(window.location.hostname));
      const port = window.location.port ? `:${window.location.port}` : '';
      root.style.setProperty('--boot-origin', JSON.stringify(`${window.location.protocol}//localhost${port}`));
    }
  } catch {
    document.documentElement.setAttribute('data-boot', 'none');
  }
})();
