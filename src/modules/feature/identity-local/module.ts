import { defineModule } from '../../kernel/plugin/descriptor.ts';

export const identityLocalModule = defineModule({
  id: 'identity-local',
  title: 'Local accounts',
  layer: 'feature',
  description: 'Sign-in with a username and password stored (hashed) by Flotilla.',
  requires: ['security'],
  signInProviders: [
    { id: 'local', kind: 'credential', label: 'Flotilla account', load: () => import('./server/local-provider.ts') },
  ],
});
