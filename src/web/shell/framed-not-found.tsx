import { RouteNotFoundState } from '../ui/states/route-states.tsx';
import { AppLayout } from './app-layout.tsx';

/** An unknown address inside the app's frame (header, navigation), so a signed-in person sees the way on. */
export function FramedNotFound() {
  return (
    <AppLayout>
      <RouteNotFoundState />
    </AppLayout>
  );
}
