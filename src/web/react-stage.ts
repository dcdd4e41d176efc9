/**
 * React DOM, run as the first of the app's code (its chunk is imported a task before the entry: the react-dom group
 * in vite.config.ts, and app-stages in scripts/route-preloads.ts). Its package is CommonJS, which the bundle runs
 * where it is first imported: from here, in its own chunk, rather than in the middle of the entry's evaluation.
 */
export { createRoot } from 'react-dom/client';
