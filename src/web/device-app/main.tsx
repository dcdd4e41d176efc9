// Only the Mantine styles the device app uses (the dashboard loads them all): less CSS to wait for on a phone.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
// Components' styles after those they build on (a button is an UnstyledButton first), as Mantine requires.
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/Title.css';
import '../reduced-motion.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createAppQueryClient } from '../query-client.ts';
import { cssVariablesResolver, theme } from '../theme.ts';
import { LiveRegion } from '../ui/live-region.tsx';
import { registerDeviceWorker } from './connection/web-push.ts';
import { DeviceApp } from './screens/device-app.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('device.html has no #root element');

// Registered on every open (so the browser can update it) once the page has loaded: push needs it, the first
// screen does not, and registering competes with it for the main thread.
window.addEventListener('load', () => void registerDeviceWorker(), { once: true });

const queryClient = createAppQueryClient();
// A transition lets React render the first screen in slices, yielding to the browser between them, instead of one
// long task that a phone spends unable to answer a tap (the page says "Opening…" meanwhile).
startTransition(() =>
  createRoot(container).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        <QueryClientProvider client={queryClient}>
          <LiveRegion />
          <DeviceApp />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);

// Validation messages are only read once something went wrong (see messages.ts).
void import('../../shared/contract/messages.ts');
