import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { Person } from '../../../shared/contract/index.ts';
import { isApiError } from '../../api/core/api-error.ts';
import { peopleQueries } from '../../api/queries/people-queries.ts';
import { ActivitySlice, useMayReadActivity } from '../../entities/activity/activity-slice.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { EndpointGate } from '../../ui/states/endpoint-gate.tsx';
import { LoadingState } from '../../ui/states/loading-state.tsx';
import { QueryState } from '../../ui/states/query-state.tsx';
import { BACK_LINK_PROPS } from '../../ui/text/text-placeholder.tsx';
import { UserText } from '../../ui/text/user-text.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import { PersonAccount, PersonSignIns } from './person-account.tsx';
import { PersonActions } from './person-actions.tsx';
import { PersonCodes } from './person-codes.tsx';
import { PersonDevices } from './person-devices.tsx';
import { ReportAlert, UnknownPerson } from './person-notices.tsx';
import { BACK_TO_PEOPLE } from './person-outline.tsx';
import { PersonRequests } from './person-requests.tsx';
import { PersonSection } from './person-section.tsx';
import { PersonTemporaryCodes } from './temporary-codes/person-temporary-codes.tsx';

const route = getRouteApi('/_app/people/$userName');

export function PersonPage() {
  const { userName } = route.useParams();
  return (
    <EndpointGate query={peopleQueries.detail} feature="People">
      <PersonDetail userName={userName} />
    </EndpointGate>
  );
}

const BACK = (
  <RouterAnchor to="/people" {...BACK_LINK_PROPS}>
    {BACK_TO_PEOPLE}
  </RouterAnchor>
);

/** One line on a phone (its outline leaves one line for it): whether they have an account, devices, pending requests. */
function summary(person: Person): string {
  const active = person.Devices.filter((device) => device.Status === 1).length;
  const pending = person.Requests.filter((request) => request.Status === 'Pending').length;
  const parts = [
    person.HasAccount ? 'Has an account' : 'No account',
    `${active} active device${active === 1 ? '' : 's'}`,
    `${pending} pending`,
  ];
  return parts.join(' · ');
}

export function PersonPending() {
  const { userName } = route.useParams();
  return (
    <>
      <PageHeader above={BACK} title={<UserText>{userName}</UserText>} />
      <LoadingState label="Loading this person…" />
    </>
  );
}

function PersonDetail({ userName }: { userName: string }) {
  const query = useQuery(peopleQueries.detail(userName));
  if (!query.isSuccess) {
    return (
      <>
        <PageHeader above={BACK} title={<UserText>{userName}</UserText>} />
        {isApiError(query.error) && query.error.kind === 'not-found' ? (
          <UnknownPerson userName={userName} />
        ) : (
          <QueryState query={query} loading="Loading this person…" what="person" back={PAGES.people} />
        )}
      </>
    );
  }
  const person = query.data;
  const openReports = person.Codes.filter((code) => code.Outcome === 'Reported' && code.HandledBy === null);
  return (
    <>
      <PageHeader above={BACK} title={<UserText>{person.UserName}</UserText>} description={summary(person)} />
      <Stack gap="md">
        {openReports.length > 0 && <ReportAlert person={person} reports={openReports.length} />}
        <PersonActions person={person} />
        <PersonDevices person={person} />
        <PersonRequests person={person} />
        <PersonCodes person={person} />
        <PersonTemporaryCodes person={person} />
        <PersonAccount person={person} />
        <PersonSignIns person={person} />
        <PersonActivity userName={person.UserName} />
      </Stack>
    </>
  );
}

/** The newest security events that concern them, for those who may read the Activity page. */
function PersonActivity({ userName }: { userName: string }) {
  if (!useMayReadActivity()) return null;
  return (
    <PersonSection title="Activity" id="activity">
      <ActivitySlice filter={{ person: userName }} what="them" />
    </PersonSection>
  );
}
