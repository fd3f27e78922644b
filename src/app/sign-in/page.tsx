import { Suspense } from 'react';
import { SignInScreen } from '@/ui/auth/sign-in.screen.tsx';

export default function SignInPage() {
  return (
    <Suspense>
      <SignInScreen />
    </Suspense>
  );
}
