import { createFileRoute } from '@tanstack/react-router';
import { DemoPage } from '../../features/demo/demo-page.tsx';

export const Route = createFileRoute('/_app/demo')({
  component: DemoPage,
});
