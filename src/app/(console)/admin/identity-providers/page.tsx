import { IdentityProvidersScreen } from '@/modules/feature/identity-oidc/ui/identity-providers.screen.tsx';

export default function IdentityProvidersPage() {
  return <IdentityProvidersScreen />;
}
