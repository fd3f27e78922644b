import { IdentityProvidersScreen } from '@/modules/feature/identity-oidc/ui.ts';

export default function IdentityProvidersPage() {
  return <IdentityProvidersScreen />;
}
