import { z } from 'zod';
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { buildManifest } from './manifest.ts';
import { manifestSchema } from './manifest.schema.ts';

const procedure = moduleProcedure('plugin');

export const pluginRouter = router({
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
    .query(({ ctx }) => buildManifest(ctx.runtime.registry)),
});
