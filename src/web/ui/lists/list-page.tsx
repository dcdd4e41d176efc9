import type { ReactNode } from 'react';
import type { HasEndpoint } from '../../api/queries/endpoint-query.ts';
import type { Page } from '../../wiring/pages.tsx';
import { PageHeader } from '../page-header.tsx';
import { EndpointGate } from '../states/endpoint-gate.tsx';

/**
 * A page that lists one endpoint's data: its heading (the page's label, as the navigation says it) and, in place of
 * the list, an explanation when the person may not call the endpoint or their API version lacks it.
 */
export function ListPage({ page, children }: { page: Page & { query: HasEndpoint }; children: ReactNode }) {
  return (
    <>
      <PageHeader title={page.label} description={page.description} />
      <EndpointGate query={page.query} feature={page.label}>
        {children}
      </EndpointGate>
    </>
  );
}
