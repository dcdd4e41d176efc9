import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { authorizationRequestQueries } from '../../api/queries/queries.ts';
import { HistoryTimeline } from '../../entities/activity/history-timeline.tsx';
import type { Decision } from '../../entities/request/decision.ts';
import { DecisionDialog } from '../../entities/request/decision-dialog.tsx';
import { RequestContextDetails } from '../../entities/request/request-context.tsx';
import { requestStatus } from '../../entities/request/request-status.ts';
import { RequestStatusBadge } from '../../entities/request/request-status-badge.tsx';
import { indefiniteArticle } from '../../lib/article.ts';
import { useFocusReturn } from '../../lib/use-focus-return.ts';
import { usePhone } from '../../lib/use-phone.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { RouterAnchor } from '../../ui/router-links.tsx';
import { EndpointGate } from '../../ui/states/endpoint-gate.tsx';
import { QueryState } from '../../ui/states/query-state.tsx';
import { UserText } from '../../ui/text/user-text.tsx';
import { PAGES } from '../../wiring/pages.tsx';
import { DecisionButtons } from './decision-buttons.tsx';
import { RequestFields } from './request-fields.tsx';

const route = getRouteApi('/_app/authorization-requests/$id');

function BackLink() {
  return (
    <RouterAnchor to="/authorization-requests" size="sm" w="fit-content">
      <Group gap={4}>
        <IconArrowLeft size={14} /> Authorization requests
      </Group>
    </RouterAnchor>
  );
}

export function RequestDetailPage() {
  const { id } = route.useParams();
  return (
    <EndpointGate query={authorizationRequestQueries.detail} feature="Authorization requests">
      <RequestDetail id={id} />
    </EndpointGate>
  );
}

function RequestDetail({ id }: { id: number }) {
  const query = useQuery(authorizationRequestQueries.detail(id));
  const pending = useQuery(authorizationRequestQueries.list({ view: 'pending' }));
  const [decision, setDecision] = useState<Decision | null>(null);
  const focusReturn = useFocusReturn();
  const phone = usePhone();

  if (!query.isSuccess)
    return (
      <QueryState
        query={query}
        loading="Loading request…"
        what="authorization request"
        back={PAGES.authorizationRequests}
      />
    );
  const request = query.data;
  const status = requestStatus(request, pending.data ? new Set(pending.data.map((r) => r.Id)) : undefined);

  return (
    <>
      <PageHeader
        above={<BackLink />}
        title={
          <Group gap="sm" component="span">
            Request #{request.Id}
            {status && <RequestStatusBadge status={status} />}
          </Group>
        }
        description={
          <>
            <UserText>{request.UserName}</UserText> asks to use{' '}
            {indefiniteArticle(request.Manufacturer || request.Model)} <UserText>{request.Manufacturer}</UserText>{' '}
            <UserText>{request.Model}</UserText> for two-factor authentication.
          </>
        }
        actions={
          status === 'Pending' && (
            <DecisionButtons
              request={request}
              onDecide={(chosen) => {
                focusReturn.remember();
                setDecision(chosen);
              }}
              size="sm"
              touch={phone}
            />
          )
        }
      />
      <Paper p="lg" radius="md" shadow="xs">
        <Stack gap="md">
          <RequestFields request={request} />
          {status === 'Decided' && (
            <Text size="sm" c="dimmed">
              This request has been decided; this server does not say how.
            </Text>
          )}
        </Stack>
      </Paper>
      <Paper p="lg" radius="md" shadow="xs" mt="md" component="section" aria-labelledby="request-context">
        <Title order={2} fz="lg" mb="sm" id="request-context">
          How it came, and their other devices
        </Title>
        <RequestContextDetails id={request.Id} />
      </Paper>
      <Stack mt="md">
        <HistoryTimeline entity="AuthorizationRequest" id={request.Id} />
      </Stack>
      {decision && (
        <DecisionDialog
          key={decision}
          target={{ request, decision }}
          onClose={() => {
            setDecision(null);
            focusReturn.restore();
          }}
          onDecided={() => setDecision(null)}
        />
      )}
    </>
  );
}
