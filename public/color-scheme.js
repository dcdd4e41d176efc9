// Applies the saved light/dark choice before the app renders, so a dark-mode user sees no white flash.
// A file rather than an inline script: the service's CSP allows only the app's own scripts.
(() => {
  try {
    const saved = window.localStorage.getItem('mantine-color-scheme-value');
    const wanted = saved === 'light' || saved === 'dark' ? saved : 'auto';
    const dark = wanted === 'dark' || (wanted === 'auto' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.setAttribute('data-mantine-color-scheme', dark ? 'dark' : 'light');
  } catch {
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  }
})();
