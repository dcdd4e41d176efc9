import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './reduced-motion.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { watchLostSession } from './lost-session.ts';
import { createAppQueryClient } from './query-client.ts';
import { createAppRouter } from './router.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const queryClient = createAppQueryClient();
const router = createAppRouter(queryClient);
watchLostSession(router, queryClient);

/** The router's own pendingMs: by then a load still under way would show its loading state anyway. */
const FIRST_RENDER_LATEST_MS = 1000;
let rendered = false;
function render() {
  if (rendered || !container) return;
  rendered = true;
  createRoot(container).render(
    <StrictMode>
      <App queryClient={queryClient} router={router} />
    </StrictMode>,
  );
}
// The first page's loader (and so its first request) starts now, before anything renders. React renders once that
// load is done: the finished page in one pass, instead of a loading pass first that delays the page's code and
// request behind it and is then thrown away. A slow load renders at the router's pending delay, as before.
router.load().catch(console.error).finally(render);
setTimeout(render, FIRST_RENDER_LATEST_MS);

// Validation messages are only read once something went wrong: they load next to the first screen, not as part
// of its download (see messages.ts).
void import('../shared/contract/messages.ts');
