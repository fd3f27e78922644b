// GET /api/v1/manifest (tRPC `access.manifest`): what is installed and on, and the permission
// catalogue, for the console's shell and its Modules screen. The registry builds it (the module contract); access
// serves it, as every procedure is served through its kit, so the contract module imports no procedure code.
import { z } from 'zod';
import { buildManifest, manifestSchema } from '@/modules/kernel/plugin/index.ts';
import { moduleProcedure, router } from '../procedure.ts';

const procedure = moduleProcedure('access');

export const manifestRouter = router({
  manifest: procedure('authenticated')
    .meta({
      openapi: {
        method: 'GET',
        path: '/manifest',
        tags: ['modules'],
        summary:
          'Every installed module, whether it is enabled and the property that turns it on, and the permission catalogue',
      },
    })
    .input(z.void())
    .output(manifestSchema)
    .query(({ ctx }) => buildManifest(ctx.runtime.registry, ctx.runtime.bus)),
});
