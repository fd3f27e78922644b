import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { signInProviders } from '@/modules/kernel/security/module.ts';

export const identityLocalModule = defineModule({
  id: 'identity-local',
  title: 'Local accounts',
  layer: 'feature',
  description: 'Sign-in with a username and password stored (hashed) by Flotilla.',
  requires: ['security'],
  contributions: [
    contribution(signInProviders, {
      id: 'local',
      kind: 'credential',
      label: 'Flotilla account',
      load: () => import('./server/local-provider.ts'),
    }),
  ],
});
