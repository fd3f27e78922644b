// The plugins API (Admin → Plugins): the list and one plugin, upload, the plan of an operation, the operations
// themselves (activate, disable, uninstall, rollback, purge), a plugin's settings, and leaving safe mode. Reads need
// plugins:read (admins); every change needs plugins:install (the installer tier) and step-up re-authentication.
import { z } from 'zod';
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { requireStepUp } from '@/modules/kernel/security/index.ts';
import {
  getOutput,
  idInput,
  leaveSafeModeInput,
  leaveSafeModeOutput,
  listOutput,
  operationInput,
  operationOutput,
  planInput,
  planOutput,
  uploadInput,
  uploadOutput,
  uiBundlesOutput,
  runJobInput,
  runJobOutput,
} from './plugins.schema.ts';
import { describePlugin, listPluginViews, safeModeHere } from './views.ts';
import { listUiBundles } from './ui-bundles.ts';
import { runJobNow, leaveSafeModeEverywhere, planOperation, runOperation, uploadArchive } from './plugin-service.ts';

const procedure = moduleProcedure('plugins');
const tags = ['plugins'];
const read = { permission: 'plugins:read' } as const;
const install = { permission: 'plugins:install' } as const;

const operation = (name: 'activate' | 'disable' | 'uninstall' | 'rollback' | 'purge', summary: string) =>
  procedure(install)
    .meta({ openapi: { method: 'POST', path: `/plugins/{id}/${name}`, tags, summary } })
    .input(operationInput)
    .output(operationOutput)
    .mutation(async ({ ctx, input }) => {
      await requireStepUp(ctx.runtime.prisma, {
        principal: ctx.principal,
        headers: ctx.http.headers,
        password: input.password,
      });
      return runOperation(ctx.runtime, ctx.request, name, input);
    });

export const pluginsRouter = router({
  uiBundles: procedure('authenticated')
    .meta({
      openapi: {
        method: 'GET',
        path: '/plugin-ui',
        tags,
        summary: 'The active plugins’ UI bundles and what each contributes where (the console loads them at start)',
      },
    })
    .input(z.void())
    .output(uiBundlesOutput)
    .query(async ({ ctx }) => ({ items: await listUiBundles(ctx.runtime) })),
  list: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: '/plugins',
        tags,
        summary: 'Every plugin, its state and versions, and this instance’s safe mode',
      },
    })
    .input(z.void())
    .output(listOutput)
    .query(async ({ ctx }) => ({
      items: await listPluginViews(ctx.runtime),
      safeMode: await safeModeHere(ctx.runtime),
    })),
  get: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: '/plugins/{id}',
        tags,
        summary: 'One plugin: manifest, versions, settings, whether it runs here',
      },
    })
    .input(idInput)
    .output(getOutput)
    .query(({ ctx, input }) => describePlugin(ctx.runtime, input.id)),
  upload: procedure(install)
    .meta({
      openapi: {
        method: 'POST',
        path: '/plugins',
        tags,
        summary: 'Upload a plugin archive (base64): validated without running anything, stored, and not started',
      },
    })
    .input(uploadInput)
    .output(uploadOutput)
    .mutation(async ({ ctx, input }) => {
      await requireStepUp(ctx.runtime.prisma, {
        principal: ctx.principal,
        headers: ctx.http.headers,
        password: input.password,
      });
      return uploadArchive(ctx.runtime, ctx.request, input);
    }),
  plan: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: '/plugins/{id}/plan',
        tags,
        summary:
          'What an operation would do now: allowed or why not, the validation’s findings, what it adds, its steps',
      },
    })
    .input(planInput)
    .output(planOutput)
    .query(({ ctx, input }) => planOperation(ctx.runtime, input)),
  activate: operation(
    'activate',
    'Activate a plugin (its current or a given uploaded version), in its manifest’s activation mode',
  ),
  disable: operation('disable', 'Disable a plugin: its process stops and its routes, jobs and tools are gone'),
  uninstall: operation('uninstall', 'Uninstall a stopped plugin (its schema and archives are kept until purge)'),
  rollback: operation('rollback', 'Return a plugin to the version it ran before'),
  purge: operation('purge', 'Purge an uninstalled plugin: its archives, schema and database role are dropped'),
  runJob: procedure(install)
    .meta({
      openapi: {
        method: 'POST',
        path: '/plugins/{id}/jobs/{jobId}/run',
        tags,
        summary: 'Run one of an active plugin’s jobs now, in its process (audited); its schedule is unchanged',
      },
    })
    .input(runJobInput)
    .output(runJobOutput)
    .mutation(({ ctx, input }) => runJobNow(ctx.runtime, ctx.request, input)),
  leaveSafeMode: procedure(install)
    .meta({
      openapi: {
        method: 'POST',
        path: '/plugins/safe-mode/leave',
        tags,
        summary: 'Leave safe mode: plugins start again on every instance',
      },
    })
    .input(leaveSafeModeInput)
    .output(leaveSafeModeOutput)
    .mutation(async ({ ctx, input }) => {
      await requireStepUp(ctx.runtime.prisma, {
        principal: ctx.principal,
        headers: ctx.http.headers,
        password: input.password,
      });
      return leaveSafeModeEverywhere(ctx.runtime, ctx.request, input);
    }),
});
