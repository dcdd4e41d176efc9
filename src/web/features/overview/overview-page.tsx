import { Group, Loader, Paper, SimpleGrid, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { statusName } from '../../../shared/contract/index.ts';
import { accountQueries } from '../../api/queries/account-queries.ts';
import { authorizationRequestQueries, pushUserQueries } from '../../api/queries/queries.ts';
import { STATUS_VALUES, statusFilterWord } from '../../entities/push-user/push-user-status.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { ErrorState } from '../../ui/states/error-state.tsx';
import { NoPermissionState } from '../../ui/states/no-permission-state.tsx';
import { UnavailableState } from '../../ui/states/unavailable-state.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import { FirstRunChecklist } from './first-run-checklist.tsx';
import { ReportedCodesSection } from './reported-codes.tsx';
import { RequestsChart } from './requests-chart.tsx';
import { requestsPerDay } from './requests-per-day.ts';

export function OverviewPage() {
  const { session } = useSession();
  if (!session) return null;
  const requests = endpointAccess(session, authorizationRequestQueries.list.endpoint);
  const pushUsers = endpointAccess(session, pushUserQueries.list.endpoint);
  // Account administrators see codes people reported, whatever their Security permissions.
  const reported = endpointAccess(session, accountQueries.reportedCodes.endpoint).allowed;
  const header = <PageHeader title={PAGES.overview.label} description={PAGES.overview.description} />;
  if (!requests.allowed && !pushUsers.allowed && !reported) {
    return (
      <>
        {header}
        {requests.reason === 'unavailable' ? (
          <UnavailableState feature="Overview" reason={requests.message} version={session.apiVersion} />
        ) : requests.reason === 'forbidden' ? (
          <NoPermissionState feature="The overview" permission={requests.permission} userName={session.userName} />
        ) : null}
      </>
    );
  }
  return (
    <>
      {header}
      <Stack gap="lg">
        <FirstRunChecklist />
        {reported && <ReportedCodesSection />}
        {requests.allowed ? <RequestSection /> : <Text c="dimmed">Authorization requests: {requests.message}.</Text>}
        {pushUsers.allowed ? <PushUserSection /> : <Text c="dimmed">Push users: {pushUsers.message}.</Text>}
      </Stack>
    </>
  );
}

function CountCard({
  label,
  count,
  link,
  testId,
}: {
  label: string;
  count: number | undefined;
  link: ReactNode;
  testId: string;
}) {
  return (
    <Paper p="md" radius="md" shadow="xs" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {count === undefined ? <Loader size="sm" mt="xs" aria-label={`Counting ${label.toLowerCase()}`} /> : link}
    </Paper>
  );
}

function CountLink({ children, label }: { children: number; label: string }) {
  return (
    <Text component="span" fz={32} fw={700} lh={1.3} aria-label={label}>
      {children}
    </Text>
  );
}

function RequestSection() {
  const pending = useQuery(authorizationRequestQueries.list({ view: 'pending' }));
  const all = useQuery(authorizationRequestQueries.list({ view: 'all' }));
  const perDay = useMemo(
    () =>
      all.data
        ? requestsPerDay(
            all.data.map((request) => request.CreatedTimestampUtc),
            new Date(),
          )
        : undefined,
    [all.data],
  );
  const error = pending.error ?? all.error;
  const total = perDay?.reduce((sum, day) => sum + day.requests, 0) ?? 0;
  return (
    <section aria-labelledby="overview-requests">
      <Title order={2} fz="lg" mb="sm" id="overview-requests">
        Authorization requests
      </Title>
      {error ? (
        <ErrorState
          error={error}
          onRetry={() => {
            void pending.refetch();
            void all.refetch();
          }}
        />
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <CountCard
              label="Waiting for a decision"
              testId="count-pending"
              count={pending.data?.length}
              link={
                <RouterAnchor
                  to="/authorization-requests"
                  search={{ view: 'pending' }}
                  underline="hover"
                  display="block"
                >
                  <CountLink label={`${pending.data?.length} pending requests`}>{pending.data?.length ?? 0}</CountLink>
                </RouterAnchor>
              }
            />
            <CountCard
              label="All requests"
              testId="count-all-requests"
              count={all.data?.length}
              link={
                <RouterAnchor to="/authorization-requests" search={{ view: 'all' }} underline="hover" display="block">
                  <CountLink label={`${all.data?.length} requests in all`}>{all.data?.length ?? 0}</CountLink>
                </RouterAnchor>
              }
            />
          </SimpleGrid>
          <Paper p="md" radius="md" shadow="xs" component="figure" m={0} aria-labelledby="overview-chart-caption">
            <Group justify="space-between" mb="sm">
              <Text fw={600} size="sm" component="figcaption" id="overview-chart-caption">
                Requests per day, last 30 days
              </Text>
              {perDay && (
                <Text size="xs" c="dimmed" data-testid="chart-summary">
                  {total} {total === 1 ? 'request' : 'requests'} in 30 days
                </Text>
              )}
            </Group>
            {perDay ? <RequestsChart data={perDay} /> : <Skeleton h={220} />}
            {perDay && (
              // The bars' heights as text, for people who cannot see them.
              <VisuallyHidden component="ul" data-testid="chart-text">
                {perDay
                  .filter((day) => day.requests > 0)
                  .map((day) => (
                    <li key={day.day}>
                      {day.label}: {day.requests} {day.requests === 1 ? 'request' : 'requests'}
                    </li>
                  ))}
              </VisuallyHidden>
            )}
          </Paper>
        </Stack>
      )}
    </section>
  );
}

const PUSH_COUNTS = STATUS_VALUES.map((status) => ({
  status,
  filter: statusFilterWord(status),
  label: statusName(status),
}));

function PushUserSection() {
  const users = useQuery(pushUserQueries.list());
  return (
    <section aria-labelledby="overview-push-users">
      <Title order={2} fz="lg" mb="sm" id="overview-push-users">
        Push users
      </Title>
      {users.isError ? (
        <ErrorState error={users.error} onRetry={() => void users.refetch()} />
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
          {PUSH_COUNTS.map(({ status, filter, label }) => {
            const count = users.data?.filter((user) => user.Status === status).length;
            return (
              <CountCard
                key={status}
                label={label}
                testId={`count-push-${filter}`}
                count={count}
                link={
                  <RouterAnchor to="/push-users" search={{ status: filter }} underline="hover" display="block">
                    <CountLink label={`${count} ${label.toLowerCase()} push users`}>{count ?? 0}</CountLink>
                  </RouterAnchor>
                }
              />
            );
          })}
        </SimpleGrid>
      )}
    </section>
  );
}
