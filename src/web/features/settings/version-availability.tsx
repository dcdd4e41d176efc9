import { Table, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import {
  type ApiVersion,
  availability,
  endpoints,
  tokenEndpointFor,
  unavailableReason,
} from '../../../shared/contract/index.ts';

const FEATURES = [
  { label: 'Authorization requests', endpoint: endpoints.listAuthorizationRequests },
  { label: 'Approve / reject devices', endpoint: endpoints.authorizeDevice },
  { label: 'Push users', endpoint: endpoints.listPushMessageUsers },
  { label: 'Instruction tokens', endpoint: endpoints.submitInstructionToken },
  { label: 'Scheduled instruction tokens', endpoint: endpoints.submitScheduledInstructionToken },
];

/** What the chosen version offers, straight from the contract's version rules. */
export function VersionAvailability({ version }: { version: ApiVersion }) {
  return (
    <Table withRowBorders={false} verticalSpacing={4} aria-label={`Features in API ${version}`}>
      <Table.Tbody>
        {FEATURES.map(({ label, endpoint }) => {
          const { available } = availability(endpoint, version);
          const reason = unavailableReason(endpoint, version);
          // #3 is missing before 3.1, where its tokens go to the obsolete #2.
          const viaObsolete =
            endpoint === endpoints.submitInstructionToken &&
            tokenEndpointFor('instruction', version) === endpoints.submitObsoleteToken;
          return (
            <Table.Tr key={label}>
              <Table.Td w={28}>
                {available || viaObsolete ? (
                  <IconCheck
                    size={16}
                    color="var(--mantine-color-green-7)"
                    aria-label="available"
                    style={{ display: 'block' }}
                  />
                ) : (
                  <IconX
                    size={16}
                    color="var(--mantine-color-red-7)"
                    aria-label="not available"
                    style={{ display: 'block' }}
                  />
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{label}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed">
                  {viaObsolete ? 'through the obsolete token endpoint' : reason}
                </Text>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
