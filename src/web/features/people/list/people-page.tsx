import { Button } from '@mantine/core';
import { IconAddressBook, IconSearchOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { PersonSummary } from '../../../../shared/contract/index.ts';
import { peopleQueries } from '../../../api/queries/people-queries.ts';
import { ListPage } from '../../../ui/lists/list-page.tsx';
import { ListQueryBody } from '../../../ui/lists/stale-list-notice.tsx';
import { useListPage } from '../../../ui/lists/use-list-page.tsx';
import { MessageState } from '../../../ui/states/message-state.tsx';
import { PAGES } from '../../../wiring/pages.tsx';
import { type PeopleSearch, type PersonRow, personSearchFields, sortPeople, viewKeeper } from './people-search.ts';
import { PeopleTable } from './people-table.tsx';
import { PeopleToolbar } from './people-toolbar.tsx';

const route = getRouteApi('/_app/people/');
const NO_PEOPLE: readonly PersonSummary[] = [];

export function PeoplePage() {
  return (
    <ListPage page={PAGES.people}>
      <People />
    </ListPage>
  );
}

function People() {
  const { view, q, sort } = route.useSearch();
  const navigate = route.useNavigate();
  const query = useQuery(peopleQueries.list());
  const data = query.data ?? NO_PEOPLE;
  // Sorted once per list or sort: a keystroke only filters what is already in order.
  const sorted = useMemo(() => sortPeople(data, sort), [data, sort]);
  const list = useListPage<PersonRow, PeopleSearch, never>({
    data: query.data ? sorted : undefined,
    q,
    fields: personSearchFields,
    keep: viewKeeper(view),
    navigate,
  });
  const { rows, search } = list;

  return (
    <>
      <PeopleToolbar
        view={view}
        q={q}
        sort={sort}
        people={query.data ? sorted : undefined}
        onSearchInput={list.onSearchInput}
        onChange={list.changeSearch}
      />
      <ListQueryBody query={query} loading="Loading people…">
        {rows.length === 0 ? (
          search || view !== 'all' ? (
            <MessageState icon={<IconSearchOff />} title="Nobody matches" description="Try another search or view.">
              <Button variant="default" onClick={() => void navigate({ search: {} })}>
                Show everyone
              </Button>
            </MessageState>
          ) : (
            <MessageState
              icon={<IconAddressBook />}
              title="Nobody yet"
              description="People appear here once they have an account, or a device of theirs asks to be authorized."
            />
          )
        ) : (
          <PeopleTable people={rows} />
        )}
      </ListQueryBody>
    </>
  );
}
