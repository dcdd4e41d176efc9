// Starts downloading the opened page's code (route-chunks in index.html, written at build time by
// scripts/route-preloads.ts) while the app's entry downloads, instead of after it has run. A file rather than an
// inline script: the service's CSP allows only the app's own scripts.
// It asks once the first frame (index.html's outline of the page) is painted, and then imports the app's entry, which
// index.html only names (#app-entry, see deferEntry in scripts/route-preloads.ts): evaluated earlier, it would hold up
// that first paint, and downloaded earlier it would slow the stylesheet that paint waits for.
(() => {
  /** Links added per task: each costs a phone ~7 ms of its main thread, and a task over 50 ms holds up a tap. */
  const LINKS_PER_TASK = 3;
  const preload = (files) => {
    for (const href of files.slice(0, LINKS_PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.appendChild(link);
    }
    if (files.length > LINKS_PER_TASK) setTimeout(() => preload(files.slice(LINKS_PER_TASK)), 0);
  };
  const preloadRouteChunks = () => {
    try {
      const table = document.getElementById('route-chunks');
      if (!table) return;
      const match = JSON.parse(table.textContent).find(([pattern]) =>
        new RegExp(pattern).test(window.location.pathname),
      );
      if (match) preload(match[1]);
    } catch {
      // Only a head start: the router loads the same files when it needs them.
    }
  };
  // A signed-in page's first date format loads the browser's locale data, about 50 ms of a phone's CPU. Made here,
  // before the first paint, it is done by the time a person can tap anything (later formats find the data loaded);
  // made after, it was a long task of its own, or a part of the longest. The sign-in page shows no dates.
  if (document.documentElement.getAttribute('data-boot') === 'shell') {
    try {
      new Intl.DateTimeFormat();
    } catch {
      // Only a head start.
    }
  }
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const entry = document.getElementById('app-entry');
    // The chunks the entry imports that are evaluated a task each before it (app-stages, written at build time by
    // scripts/route-preloads.ts): evaluated with the entry, all the app's code was one long task.
    const stages = (document.getElementById('app-stages')?.content ?? '').split(' ').filter(Boolean);
    // Downloaded alongside the first stage, not after it.
    if (entry && stages.length > 0) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = entry.content;
      document.head.appendChild(link);
    }
    const next = () =>
      stages.length > 0
        ? import(stages.shift())
            // Only a head start: the entry imports the same chunk, and says so if it cannot load.
            .catch(() => undefined)
            .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
            .then(next)
        : entry && import(entry.content);
    next();
    // Asked for in tasks of their own, a few links each (see LINKS_PER_TASK).
    setTimeout(preloadRouteChunks, 0);
  };
  // A tab opened in the background paints no frame (and runs no animation frame) until shown: it starts at once.
  if (document.visibilityState === 'hidden') start();
  // The frame after the first: by then the first has been presented, not only drawn.
  else {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start, 0)));
    // Should the tab be hidden meanwhile, frames stop: timers do not.
    setTimeout(start, 500);
  }
})();
