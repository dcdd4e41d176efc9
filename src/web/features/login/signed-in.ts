import { type LoginResult, RECOVERY_CODES_LOW } from '../../../shared/contract/index.ts';
import { notify } from '../../lib/notify.ts';

/** A sign-in that went through: its session, and a warning when recovery codes run low. */
export function signedIn(result: LoginResult, onSignedIn: (result: LoginResult) => void) {
  if (result.RecoveryCodesLeft !== undefined && result.RecoveryCodesLeft <= RECOVERY_CODES_LOW) {
    notify({
      title: `${result.RecoveryCodesLeft} recovery code${result.RecoveryCodesLeft === 1 ? '' : 's'} left`,
      message: 'Make new ones in Sign-in methods before they run out.',
      color: 'orange',
    });
  }
  onSignedIn(result);
}
