import { TokensScreen } from '@/modules/feature/apitokens/ui.ts';

export default function ApiTokensPage() {
  return <TokensScreen />;
}
