import { useEffect, useState, useSyncExternalStore } from 'react';
import type { LoginResult } from '../../../shared/contract/index.ts';
import { deviceCredentialStore } from '../connection/device-credential.ts';
import { endSignIn } from '../connection/device-queries.ts';
import { DeviceScreen } from './device-screen.tsx';
import { DeviceShell } from './device-shell.tsx';
import { clearEnrollmentFragment, readEnrollmentCode } from './enrol/enrollment-fragment.ts';
import { RegisterStep } from './enrol/register-step.tsx';
import { SignInStep } from './enrol/sign-in-step.tsx';

/**
 * The device app: enrol (from an enrolment link, or signed in with a password), then this device's state, its
 * notifications and its codes. Which screen shows follows from two facts: whether this browser holds a device
 * credential, and whether the address carries an enrolment code.
 */
export function DeviceApp() {
  const credential = useSyncExternalStore(deviceCredentialStore.subscribe, deviceCredentialStore.get);
  const [enrollmentCode, setEnrollmentCode] = useState(readEnrollmentCode);
  // The password sign-in lives in memory only, for the one enrolment call.
  const [signIn, setSignIn] = useState<LoginResult | null>(null);

  useEffect(() => {
    const onHashChange = () => setEnrollmentCode(readEnrollmentCode());
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  function forgetEnrollmentCode() {
    clearEnrollmentFragment();
    setEnrollmentCode(null);
  }

  if (credential) {
    return (
      <DeviceShell>
        <DeviceScreen
          credential={credential}
          unusedEnrollmentCode={enrollmentCode}
          onDismissEnrollmentCode={forgetEnrollmentCode}
        />
      </DeviceShell>
    );
  }
  if (enrollmentCode) {
    return (
      <DeviceShell>
        <RegisterStep
          enrollmentCode={enrollmentCode}
          onEnrolled={forgetEnrollmentCode}
          onCodeRefused={forgetEnrollmentCode}
        />
      </DeviceShell>
    );
  }
  if (signIn) {
    return (
      <DeviceShell>
        <RegisterStep
          signIn={signIn}
          onEnrolled={() => setSignIn(null)}
          onSignInEnded={() => setSignIn(null)}
          onCancel={() => {
            void endSignIn(signIn.Token);
            setSignIn(null);
          }}
        />
      </DeviceShell>
    );
  }
  return (
    <DeviceShell>
      <SignInStep onSignedIn={setSignIn} />
    </DeviceShell>
  );
}
