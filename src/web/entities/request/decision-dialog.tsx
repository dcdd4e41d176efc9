import { Alert, Button, Group, Modal, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconInfoCircle, IconX } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import { isApiError } from '../../api/core/api-error.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { useDecideRequest } from '../../api/queries/mutations.ts';
import { notify } from '../../lib/notify.ts';
import { readDraft, writeDraft } from '../../lib/stores/draft-store.ts';
import { sheetProps, TOUCH_TARGET, usePhone } from '../../lib/use-phone.ts';
import { useSession } from '../../session/session-context.tsx';
import { UserText } from '../../ui/text/user-text.tsx';
import { DeviceSummary } from '../device/device-summary.tsx';
import type { DecisionTarget } from './decision.ts';
import { RequestContextDetails } from './request-context.tsx';

export interface DecisionDialogProps {
  target: DecisionTarget;
  onClose: () => void;
  onDecided: (request: AuthorizationRequest) => void;
}

/** Approve or reject one request, with an optional comment that stays put if the call fails. */
export function DecisionDialog({ target, onClose, onDecided }: DecisionDialogProps) {
  const { request, decision } = target;
  const approve = decision === 'approve';
  const { session } = useSession();
  // Kept per user and request until the decision is made: it survives an expired session and the next sign-in.
  const draftKey = `decision.${session?.userName ?? ''}.${request.Id}`;
  const [comment, setCommentState] = useState(() => readDraft(draftKey));
  const setComment = (text: string) => {
    setCommentState(text);
    writeDraft(draftKey, text);
  };
  const mutation = useDecideRequest();
  const alreadyDecided = isApiError(mutation.error) && mutation.error.kind === 'already-decided';
  const phone = usePhone();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (mutation.isPending || alreadyDecided) return;
    mutation.mutate(
      {
        RequestId: request.Id,
        RequestGuid: request.RequestGuid,
        Authorized: approve,
        Comment: comment.trim() === '' ? undefined : comment.trim(),
      },
      {
        onSuccess: (decided) => {
          writeDraft(draftKey, '');
          notify({
            // A rejection is a decision made, not an error: no red, no cross.
            color: approve ? 'green' : 'gray',
            icon: <IconCheck size={18} />,
            title: approve ? 'Device approved' : 'Request rejected',
            message: approve
              ? `${decided.UserName}'s ${decided.Manufacturer} ${decided.Model} can now be used for two-factor authentication.`
              : `${decided.UserName}'s ${decided.Manufacturer} ${decided.Model} was not authorized.`,
          });
          onDecided(decided);
        },
      },
    );
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={<Text fw={650}>{approve ? 'Approve this device?' : 'Reject this request?'}</Text>}
      size="md"
      {...sheetProps(phone)}
    >
      <form onSubmit={submit}>
        <Stack gap="md">
          <Paper p="sm" bg="var(--mantine-color-default-hover)" withBorder={false}>
            <Stack gap={6}>
              <Text size="sm">
                <Text span fw={600}>
                  <UserText>{request.UserName}</UserText>
                </Text>
                {request.UserEmail.trim() !== '' && (
                  <Text span c="dimmed">
                    {' '}
                    (<UserText>{request.UserEmail}</UserText>)
                  </Text>
                )}
              </Text>
              <DeviceSummary
                deviceType={request.DeviceType}
                manufacturer={request.Manufacturer}
                model={request.Model}
                osVersion={request.OsVersion}
              />
            </Stack>
          </Paper>
          <RequestContextDetails id={request.Id} />
          <Text size="sm" c="dimmed">
            {approve
              ? 'The device will be registered for push messages and can approve two-factor sign-ins.'
              : 'The device will not be registered. The user can ask again from the device.'}
          </Text>
          <Textarea
            label="Comment"
            description="Optional; recorded with the decision. Kept in this tab if your session ends before you confirm."
            placeholder={
              approve ? 'e.g. Verified by phone with the user' : 'e.g. Unknown device, user did not ask for it'
            }
            autosize
            minRows={2}
            maxRows={6}
            maxLength={2000}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Enter confirms (keyboard triage); Shift+Enter starts a new line.
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
            data-autofocus
          />
          {mutation.error &&
            (alreadyDecided ? (
              <Alert color="yellow" icon={<IconInfoCircle />} title="Someone already decided this request">
                {mutation.error.message} The list has been refreshed.
              </Alert>
            ) : (
              <Alert color="red" icon={<IconAlertTriangle />} title={describeError(mutation.error).title}>
                {describeError(mutation.error).message} Your comment is kept; try again.
              </Alert>
            ))}
          <Group justify="flex-end" gap="sm" grow={phone}>
            <Button variant="default" onClick={onClose} h={phone ? TOUCH_TARGET : undefined}>
              {alreadyDecided ? 'Close' : 'Cancel'}
            </Button>
            {!alreadyDecided && (
              <Button
                type="submit"
                color={approve ? undefined : 'red.9'}
                leftSection={approve ? <IconCheck size={16} /> : <IconX size={16} />}
                loading={mutation.isPending}
                h={phone ? TOUCH_TARGET : undefined}
              >
                {approve ? 'Approve' : 'Reject'}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
