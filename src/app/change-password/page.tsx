import { Suspense } from 'react';
import { ChangePasswordScreen } from '@/modules/kernel/security/ui/change-password.screen.tsx';

export default function ChangePasswordPage() {
  return (
    <Suspense>
      <ChangePasswordScreen />
    </Suspense>
  );
}
