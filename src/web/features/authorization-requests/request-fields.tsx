import { Code, Text } from '@mantine/core';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import { PersonLink, RegisteredPushUserLink } from '../../entities/person/person-links.tsx';
import { type Field, FieldList } from '../../ui/text/field-list.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { UserText } from '../../ui/text/user-text.tsx';

export function RequestFields({ request }: { request: AuthorizationRequest }) {
  const rows: Field[] = [
    ['User', <PersonLink key="user" userName={request.UserName} />],
    ['Email', request.UserEmail],
    ['Device type', request.DeviceType],
    ['Manufacturer', request.Manufacturer],
    ['Model', request.Model],
    ['OS version', request.OsVersion],
    ['Request GUID', <Code key="guid">{request.RequestGuid}</Code>],
    ['Requested', <Timestamp key="created" value={request.CreatedTimestampUtc} />],
    ['Last modified', <Timestamp key="modified" value={request.ModifiedTimestampUtc} />],
  ];
  if (request.DecidedBy) rows.push(['Decided by', request.DecidedBy]);
  if (request.Status === 'Authorized')
    rows.push(['Registered', <RegisteredPushUserLink key="registered" request={request} />]);
  if (request.DecidedTimestampUtc)
    rows.push(['Decided', <Timestamp key="decided" value={request.DecidedTimestampUtc} />]);
  if (request.Comment)
    rows.push([
      'Comment',
      <Text key="comment" size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        <UserText>{request.Comment}</UserText>
      </Text>,
    ]);

  return <FieldList fields={rows} />;
}
