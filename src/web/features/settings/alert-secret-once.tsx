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
