// The audit log API. Parameters leave through the content policy when one is installed (audit.parameter-view):
// a parameter may carry what a caller typed, a message property among it.
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { auditParameterView, type AuditParameterView } from '../module.ts';
import { listAuditEvents } from './audit-query.ts';
import { listAuditInput, listAuditOutput } from './audit.schema.ts';

const procedure = moduleProcedure('audit');

const views = new WeakMap<ModuleRegistry, Promise<AuditParameterView | undefined>>();

function parameterView(registry: ModuleRegistry): Promise<AuditParameterView | undefined> {
  let view = views.get(registry);
  if (!view) {
    const [declared] = registry.contributionsTo(auditParameterView);
    view = declared ? declared.value.load() : Promise.resolve(undefined);
    views.set(registry, view);
  }
  return view;
}

export const auditRouter = router({
  list: procedure({ permission: 'audit:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/audit',
        tags: ['audit'],
        summary: 'Search the audit log (filters by actor, action, cluster, outcome and time)',
      },
    })
    .input(listAuditInput)
    .output(listAuditOutput)
    .query(async ({ ctx, input }) => {
      const page = await listAuditEvents(ctx.runtime.prisma, input);
      const view = await parameterView(ctx.runtime.registry);
      if (!view) return page;
      const governed = await view.govern(
        ctx.runtime,
        page.items.map((item) =>
          item.parameters !== null && typeof item.parameters === 'object' && !Array.isArray(item.parameters)
            ? (item.parameters as Record<string, unknown>)
            : {},
        ),
      );
      // Targets too: one may be what a caller typed (rows stored before targets were masked, or by another store).
      const targets = await view.govern(
        ctx.runtime,
        page.items.map((item) => ({ target: item.target })),
      );
      return {
        ...page,
        items: page.items.map((item, index) => ({
          ...item,
          target: typeof targets[index]?.target === 'string' ? targets[index].target : item.target,
          parameters: governed[index] ?? {},
        })),
      };
    }),
});
