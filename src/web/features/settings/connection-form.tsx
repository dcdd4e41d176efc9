import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconDeviceFloppy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { API_PREFIX, type ApiVersion, isApiVersion } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { systemQueries } from '../../api/queries/system-queries.ts';
import { notify } from '../../lib/notify.ts';
import { useSession } from '../../session/session-context.tsx';
import { sessionStore } from '../../session/session-store.ts';
import { resolveApiVersion, selectableVersions } from '../../settings/resolve-version.ts';
import { useSettings } from '../../settings/use-settings.ts';
import { VersionAvailability } from './version-availability.tsx';

const SERVER_DEFAULT = 'server-default';

export function ConnectionForm() {
  const [settings, saveSettings] = useSettings();
  const { session, setApiVersion } = useSession();
  const navigate = useNavigate();
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl);
  const [consumerName, setConsumerName] = useState(settings.consumerName);
  const [version, setVersion] = useState<string>(settings.apiVersion ?? SERVER_DEFAULT);
  const versionQuery = useQuery(systemQueries.version(settings.baseUrl));

  const chosen: ApiVersion | null = isApiVersion(version) ? version : null;
  const effective = resolveApiVersion(chosen, versionQuery.data);
  const serverDefault = versionQuery.data?.DefaultVersion;

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmedUrl = baseUrl.trim().replace(/\/+$/, '') || API_PREFIX;
    const serverChanged = trimmedUrl !== settings.baseUrl;
    saveSettings({
      baseUrl: trimmedUrl,
      apiVersion: chosen,
      consumerName: consumerName.trim() || settings.consumerName,
    });
    if (serverChanged && session) {
      // A token belongs to the server that issued it.
      sessionStore.set(null);
      notify({ title: 'Server changed', message: 'Sign in to the new server.' });
      void navigate({ to: '/login' });
      return;
    }
    if (session) setApiVersion(effective);
    notify({ color: 'green', title: 'Settings saved', message: `Using API ${effective}.` });
  }

  return (
    <form onSubmit={submit}>
      <Stack gap="md">
        {/* The browser's own list (a phone's picker): Mantine's Select brought its popover and Floating UI into the
            page's first render, the longest part of its first task on a phone. */}
        <NativeSelect
          label="API version"
          description={
            serverDefault ? `The server's default is ${serverDefault}.` : 'Read from the server when it answers.'
          }
          value={version}
          onChange={(event) => setVersion(event.currentTarget.value)}
          w={280}
          data={[
            { value: SERVER_DEFAULT, label: `Server default${serverDefault ? ` (${serverDefault})` : ''}` },
            ...selectableVersions(versionQuery.data).map((v) => ({ value: v, label: `API ${v}` })),
          ]}
        />
        {versionQuery.isError && (
          <Alert color="yellow" icon={<IconAlertTriangle />} title="Could not read the server's versions">
            {describeError(versionQuery.error).message}
          </Alert>
        )}
        <VersionAvailability version={effective} />
        {/* Which server and which consumer name: set once, rarely again, so out of the way (the sign-in page's
            line naming them lives here now). Open when the server is not this one or does not answer. */}
        <details open={settings.baseUrl !== API_PREFIX || versionQuery.isError} data-testid="settings-advanced">
          <summary style={{ cursor: 'pointer', fontWeight: 600, fontSize: 'var(--mantine-font-size-sm)' }}>
            Advanced: server and consumer name
          </summary>
          <Text size="xs" c="dimmed" mt={6} mb="sm" data-testid="connection-summary">
            {settings.baseUrl}
            {versionQuery.data ? ` · API ${effective}` : ''}
            {versionQuery.isError ? ' · not answering' : ''}
          </Text>
          <Stack gap="md">
            <TextInput
              label="Server base URL"
              description="Where the Consumer API lives: /api for this server, or e.g. https://tachyon.example.com/Consumer."
              value={baseUrl}
              onChange={(event) => setBaseUrl(event.currentTarget.value)}
              required
            />
            <TextInput
              label="Consumer name"
              description="Sent as X-Tachyon-Consumer on every call, so the server knows which application is calling."
              value={consumerName}
              onChange={(event) => setConsumerName(event.currentTarget.value)}
              required
            />
          </Stack>
        </details>
        <Group>
          <Button type="submit" leftSection={<IconDeviceFloppy size={16} />}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
