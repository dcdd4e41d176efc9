import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { PageHeader } from '../src/web/components/page-header.tsx';
import { cssVariablesResolver, theme } from '../src/web/theme.ts';
import { PAGES } from '../src/web/wiring/pages.tsx';

/** A page whose first render begins with its header, the part index.html can show before the app has run. */
export interface PageOutline {
  key: string;
  path: string;
  html: string;
}

/**
 * The pages that open on their header. The demo console first asks the server whether demo mode is on (and shows no
 * header when it is off); settings is reachable signed out, where the sign-in outline shows instead.
 */
const OUTLINED = ['overview', 'authorizationRequests', 'pushUsers', 'twoFactor', 'accounts'] as const;

const render = (node: React.ReactNode) =>
  renderToStaticMarkup(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      {node}
    </MantineProvider>,
  );

/**
 * The app theme's CSS variables (Mantine's provider writes them as a <style> element), and each outlined page's header
 * rendered by the same component, with the same props, as the page itself: so the first render replaces it with
 * identical text in the identical place.
 */
export function renderPageOutlines(): { themeStyle: string; outlines: PageOutline[] } {
  const themeStyle = render(null);
  const outlines = OUTLINED.map((key) => {
    const page = PAGES[key];
    const html = render(<PageHeader title={page.label} description={page.description} />);
    if (!html.startsWith(themeStyle)) throw new Error('MantineProvider no longer writes its style first');
    return { key, path: page.to, html: html.slice(themeStyle.length) };
  });
  return { themeStyle, outlines };
}
