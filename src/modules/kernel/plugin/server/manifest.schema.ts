import { z } from 'zod';

export const manifestSchema = z.object({
  modules: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      layer: z.enum(['kernel', 'platform', 'feature']),
      description: z.string(),
      enabled: z.boolean(),
      /** Kernel and platform modules (except mcp) are required and cannot be turned off. */
      canBeDisabled: z.boolean(),
      enablingProperty: z.string(),
      toggleSource: z.enum(['default', 'environment', 'database']),
      requires: z.array(z.string()),
      permissions: z.array(z.string()),
      settings: z.array(z.string()),
      topics: z.array(z.string()),
      mcp: z.array(z.object({ name: z.string(), kind: z.enum(['tool', 'resource', 'prompt']) })),
      apiPrefixes: z.array(z.string()),
    }),
  ),
  permissions: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      includedIn: z.enum(['viewer', 'operator', 'admin', 'installer']),
      module: z.string(),
      enabled: z.boolean(),
      /** A permission known only at runtime: what declared it (a running plugin's id). */
      source: z.string().optional(),
    }),
  ),
});

export type Manifest = z.infer<typeof manifestSchema>;
