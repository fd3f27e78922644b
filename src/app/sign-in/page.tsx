import { Suspense } from 'react';
import { SignInScreen } from '@/modules/kernel/security/ui.ts';

export default function SignInPage() {
  return (
    <Suspense>
      <SignInScreen />
    </Suspense>
  );
}
