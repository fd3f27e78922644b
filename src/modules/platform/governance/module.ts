import { auditParameterView } from '@/modules/kernel/audit/module.ts';
import { contribution, createExtensionPoint, defineModule } from '@/modules/kernel/plugin/index.ts';
import type { StoredContentDeclaration } from './server/stored-content.ts';

export type { StoredContentDeclaration } from './server/stored-content.ts';

/** Modules that store governed content: their remask progress (GET /api/v1/governance/remask). */
export const storedContent = createExtensionPoint<StoredContentDeclaration>({
  id: 'governance.stored-content',
  owner: 'governance',
  cardinality: 'many',
});

export const governanceModule = defineModule({
  id: 'governance',
  title: 'Governance',
  layer: 'platform',
  description:
    'One content policy at every exit (detectors, rules, masking, clear access audited as VIEW_CLEAR) and the secret vault that seals credentials and original content with the installation’s key ring.',
  requires: ['core', 'access', 'audit', 'security'],
  permissions: [
    {
      id: 'governance:read',
      description: 'See the content policy, its findings and remask progress',
      includedIn: 'admin',
    },
    { id: 'governance:write', description: 'Change the content policy', includedIn: 'admin' },
    {
      id: 'message:clear',
      description: 'See non-credential message values in clear (marked sensitive; every such answer is audited)',
      includedIn: 'admin',
    },
  ],
  apiPrefixes: ['/api/v1/governance'],
  // Writes the findings still counted in memory when a process's runtime closes (server/process-start.ts).
  processStart: { load: () => import('./server/process-start.ts') },
  extensionPoints: [storedContent],
  contributions: [
    contribution(auditParameterView, {
      id: 'content-policy',
      load: async () => (await import('./server/audit-view.ts')).auditParameterViewOfPolicy(),
    }),
  ],
});
