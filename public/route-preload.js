// Starts downloading the opened page's code (route-chunks in index.html, written at build time by
// scripts/route-preloads.ts) while the app's entry downloads, instead of after it has run. A file rather than an
// inline script: the service's CSP allows only the app's own scripts.
(() => {
  try {
    const table = document.getElementById('route-chunks');
    if (!table) return;
    for (const [pattern, files] of JSON.parse(table.textContent)) {
      if (!new RegExp(pattern).test(window.location.pathname)) continue;
      for (const href of files) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.href = href;
        document.head.appendChild(link);
      }
    }
  } catch {
    // Only a head start: the router loads the same files when it needs them.
  }
})();
