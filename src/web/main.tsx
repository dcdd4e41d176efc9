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
// The first page's loader (and so its first request) starts now, while React renders the providers, rather than
// once the router component has mounted; the router then finds the load under way and waits for it.
router.load().catch(console.error);

createRoot(container).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>,
);

// Validation messages are only read once something went wrong: they load next to the first screen, not as part
// of its download (see messages.ts).
void import('../shared/contract/messages.ts');
