import { Modal } from '@mantine/core';
import type { AlertDestination } from '../../../shared/contract/index.ts';
import { SecretShownOnce } from '../../ui/secret-shown-once.tsx';

/** A webhook's whsec_ signing secret as the service answered it this once: copied now, or rotated later. */
export function AlertSecretOnce({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  return (
    <SecretShownOnce
      label="Signing secret"
      secret={secret}
      testId="webhook-secret"
      onDone={onDone}
      warning={
        <>
          You won’t see it again. Give it to the receiver of {name}, which checks each alert’s webhook-signature with it
          (any Standard Webhooks library does). If it is lost, rotate it.
        </>
      }
    />
  );
}

/** The secret a rotation made, in a dialog of its own that only its button closes. */
export function AlertSecretModal({
  destination,
  secret,
  onClose,
}: {
  destination: AlertDestination;
  secret: string;
  onClose: () => void;
}) {
  return (
    <Modal
      opened
      onClose={onClose}
      title="New webhook signing secret"
      size="lg"
      closeOnEscape={false}
      closeOnClickOutside={false}
      withCloseButton={false}
    >
      <AlertSecretOnce name={destination.Name} secret={secret} onDone={onClose} />
    </Modal>
  );
}
