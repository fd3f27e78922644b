import { Suspense } from 'react';
import { ChangePasswordScreen } from '@/modules/kernel/security/ui.ts';

export default function ChangePasswordPage() {
  return (
    <Suspense>
      <ChangePasswordScreen />
    </Suspense>
  );
}
