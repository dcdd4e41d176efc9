import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { PersonOutline } from '../src/web/features/people/person-outline.tsx';
import { PushUserOutline } from '../src/web/features/push-users/push-user-outline.tsx';
import { SignInMethodsOutline } from '../src/web/features/sign-in-methods/sign-in-methods-outline.tsx';
import { TwoFactorOutline } from '../src/web/features/two-factor/two-factor-outline.tsx';
import { cssVariablesResolver, theme } from '../src/web/theme.ts';
import { PageHeader } from '../src/web/ui/page-header.tsx';
import { PAGES } from '../src/web/wiring/pages.tsx';
import { routePattern } from './route-preloads.ts';

/** A page whose first render begins with its header, the part index.html can show before the app has run. */
export interface PageOutline {
  key: string;
  /** The paths it is shown at (a regular expression public/boot-screen.js tests the opened path with). */
  pattern: string;
  html: string;
}

/** `/push-users` → `^/push-users/?$`, `/` → `^/$`: a page's path read as the route file it is served by. */
export function outlinePattern(pagePath: string): string {
  return routePattern(pagePath.slice(1) || 'index');
}

/** The pages whose first render does not begin with their header, and why: every other page in PAGES has an outline. */
export const WITHOUT_OUTLINE: Partial<Record<keyof typeof PAGES, string>> = {
  demo: 'asks the server whether demo mode is on first, and has no header when it is off',
};

/**
 * The pages whose outline holds more than their header, down to what a phone paints largest (the header by default):
 * the two-factor page's is the "Send me a code" paragraph, under the token form.
 */
const FULLER_OUTLINES: Partial<Record<keyof typeof PAGES, React.ReactNode>> = {
  twoFactor: <TwoFactorOutline />,
};

/** The pages that open on their header. */
export const OUTLINED = (Object.keys(PAGES) as (keyof typeof PAGES)[]).filter((key) => !(key in WITHOUT_OUTLINE));

// Each outline's ids (Mantine's responsive styles are classes named from them) start with its key: rendered one by
// one, they would otherwise repeat from outline to outline, and one hidden outline's rules would reach another's.
const render = (node: React.ReactNode, identifierPrefix = '') =>
  renderToStaticMarkup(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      {node}
    </MantineProvider>,
    { identifierPrefix },
  );

/**
 * The app theme's CSS variables (Mantine's provider writes them as a <style> element), and each outlined page's header
 * rendered by the same component, with the same props, as the page itself: so the first render replaces it with
 * identical text in the identical place.
 */
export function renderPageOutlines(): { themeStyle: string; outlines: PageOutline[] } {
  const themeStyle = render(null);
  const outline = (key: string, pattern: string, node: React.ReactNode): PageOutline => {
    const html = render(node, `${key}-`);
    if (!html.startsWith(themeStyle)) throw new Error('MantineProvider no longer writes its style first');
    return { key, pattern, html: html.slice(themeStyle.length) };
  };
  const outlines = OUTLINED.map((key) =>
    outline(
      key,
      outlinePattern(PAGES[key].to),
      FULLER_OUTLINES[key] ?? <PageHeader title={PAGES[key].label} description={PAGES[key].description} />,
    ),
  );
  outlines.push(outline('pushUser', routePattern('_app/push-users/$id'), <PushUserOutline />));
  outlines.push(outline('person', routePattern('_app/people/$userName'), <PersonOutline />));
  outlines.push(outline('signInMethods', routePattern('_app/sign-in-methods'), <SignInMethodsOutline />));
  return { themeStyle, outlines };
}
