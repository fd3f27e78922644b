import { TokensScreen } from '@/modules/feature/apitokens/ui/tokens.screen.tsx';

export default function ApiTokensPage() {
  return <TokensScreen />;
}
