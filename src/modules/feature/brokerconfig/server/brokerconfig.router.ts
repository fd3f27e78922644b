// The brokerconfig API: the declared document and its revisions (History), adoption, recommendations, the plan per
// live node with its hazards and hash, the canary-first apply and its approvals, drift, apply runs and bridge
// credentials. Reads need config:read; saves and credentials config:write; apply and approval config:apply.
import { guardCluster, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import {
  adoptInput,
  adoptOutput,
  applyInput,
  applyOutput,
  approveInput,
  approveOutput,
  clusterInput,
  driftOutput,
  overviewOutput,
  planOutput,
  putSecretInput,
  recommendationsOutput,
  removeSecretInput,
  revisionInput,
  revisionOutput,
  revisionsOutput,
  runsOutput,
  saveRevisionInput,
  saveRevisionOutput,
  schemaOutput,
  secretChangeOutput,
  secretsOutput,
} from './brokerconfig.schema.ts';
import { documentJsonSchema } from './model/document.ts';
import { applyConfiguration } from './apply/apply-run.ts';
import { approvePlan } from './apply/approve.ts';
import { adoptLive } from './planning/adopt-live.ts';
import { planView } from './planning/plan-view.ts';
import { recommendationsFor } from './planning/recommend-live.ts';
import { readOverview, readRuns } from './store/overview.ts';
import { listRevisions, readRevision, saveRevision } from './store/revisions.ts';
import { listSecrets, putSecret, removeSecret } from './store/secrets.ts';
import { readDrift } from './drift/evaluate-drift.ts';

const procedure = moduleProcedure('brokerconfig');
const tags = ['brokerconfig'];
const read = { clusterPermission: 'config:read' } as const;
const write = { clusterPermission: 'config:write' } as const;
const applying = { clusterPermission: 'config:apply' } as const;
const base = '/clusters/{clusterId}/config';

const notFound = () =>
  new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: 'No such revision of this cluster.' });

const secretsRouter = router({
  list: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: `${base}/secrets`,
        tags,
        summary: 'The names of the bridge credentials the vault holds for this cluster (never their values)',
      },
    })
    .input(clusterInput)
    .output(secretsOutput)
    .query(async ({ ctx, input }) => ({ items: await listSecrets(ctx.runtime.prisma, input.clusterId) })),
  put: procedure(write)
    .meta({
      openapi: {
        method: 'PUT',
        path: `${base}/secrets/{name}`,
        tags,
        summary:
          'Store a bridge credential in the vault (sealed; a document names it by passwordRef); audited without the value',
      },
    })
    .input(putSecretInput)
    .output(secretChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const { cluster } = await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId });
      return putSecret(ctx.runtime.prisma, ctx.request, { id: input.clusterId, name: cluster.name }, input);
    }),
  remove: procedure(write)
    .meta({
      openapi: {
        method: 'DELETE',
        path: `${base}/secrets/{name}`,
        tags,
        summary: 'Remove a bridge credential from the vault; audited',
      },
    })
    .input(removeSecretInput)
    .output(secretChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const { cluster } = await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId });
      return removeSecret(ctx.runtime.prisma, ctx.request, { id: input.clusterId, name: cluster.name }, input);
    }),
});

const revisionsRouter = router({
  list: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: `${base}/revisions`,
        tags,
        summary: 'History: every revision, newest first, with author, comment, source and what changed',
      },
    })
    .input(clusterInput)
    .output(revisionsOutput)
    .query(async ({ ctx, input }) => ({
      items: (await listRevisions(ctx.runtime.prisma, input.clusterId)).map(
        ({ document: _document, createdAt, ...rest }) => ({
          ...rest,
          createdAt: createdAt.toISOString(),
        }),
      ),
    })),
  get: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: `${base}/revisions/{number}`,
        tags,
        summary: 'One revision’s document and what changed from the one before',
      },
    })
    .input(revisionInput)
    .output(revisionOutput)
    .query(async ({ ctx, input }) => {
      const revision = await readRevision(ctx.runtime.prisma, input.clusterId, input.number);
      if (!revision) throw notFound();
      return { ...revision, createdAt: revision.createdAt.toISOString() };
    }),
  save: procedure(write)
    .meta({
      openapi: {
        method: 'POST',
        path: `${base}/revisions`,
        tags,
        summary:
          'Save the declared document as a new revision (names the revision it started from; 409 revision-conflict otherwise); audited',
      },
    })
    .input(saveRevisionInput)
    .output(saveRevisionOutput)
    .mutation(async ({ ctx, input }) => {
      const { cluster } = await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId });
      return saveRevision(
        ctx.runtime,
        ctx.request,
        { id: input.clusterId, name: cluster.name },
        { ...input, source: 'edit' },
      );
    }),
  adopt: procedure(write)
    .meta({
      openapi: {
        method: 'POST',
        path: `${base}/adopt`,
        tags,
        summary:
          'Turn the live cluster’s configuration into a revision (bridges skipped, and said so); a dry run shows the document',
      },
    })
    .input(adoptInput)
    .output(adoptOutput)
    .mutation(async ({ ctx, input }) => {
      const { cluster } = await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId });
      return adoptLive(ctx.runtime, ctx.request, { id: input.clusterId, name: cluster.name }, input);
    }),
});

export const brokerconfigRouter = router({
  overview: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: base,
        tags,
        summary: 'The current revision, drift per node and item, and the last apply run',
      },
    })
    .input(clusterInput)
    .output(overviewOutput)
    .query(({ ctx, input }) => readOverview(ctx.runtime.prisma, input.clusterId)),
  schema: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: `${base}/schema`,
        tags,
        summary: 'The JSON schema of the declared document (the editor’s completion and validation)',
      },
    })
    .input(clusterInput)
    .output(schemaOutput)
    .query(() => ({ schema: documentJsonSchema() })),
  recommendations: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: `${base}/recommendations`,
        tags,
        summary: 'Recommended settings, each explained with what it prevents and the document with it taken',
      },
    })
    .input(clusterInput)
    .output(recommendationsOutput)
    .query(async ({ ctx, input }) => ({ items: await recommendationsFor(ctx.runtime, input.clusterId) })),
  plan: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: `${base}/plan`,
        tags,
        summary:
          'The plan per live node (canary first) from at most two batched reads each: steps, classified hazards and the hash an apply names',
      },
    })
    .input(clusterInput)
    .output(planOutput)
    .query(({ ctx, input }) => planView(ctx.runtime, input.clusterId)),
  drift: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: `${base}/drift`,
        tags,
        summary:
          'The latest drift evaluation: each declared item on each live node, in sync, drifted (with the fields) or missing',
      },
    })
    .input(clusterInput)
    .output(driftOutput)
    .query(async ({ ctx, input }) => {
      const items = await readDrift(ctx.runtime.prisma, input.clusterId);
      const oldest = items.map((item) => item.evaluatedAt).sort()[0] ?? null;
      return { items, evaluatedAt: oldest };
    }),
  runs: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: `${base}/runs`,
        tags,
        summary: 'The latest apply runs: status, who ran and approved, how far each node got',
      },
    })
    .input(clusterInput)
    .output(runsOutput)
    .query(async ({ ctx, input }) => ({ items: await readRuns(ctx.runtime.prisma, input.clusterId) })),
  applyPlan: procedure(applying)
    .meta({
      openapi: {
        method: 'POST',
        path: `${base}/apply`,
        tags,
        summary:
          'Apply the previewed plan (by hash; 409 plan-changed when the cluster moved), canary first, halting at the first failure; audited per step',
      },
    })
    .input(applyInput)
    .output(applyOutput)
    .mutation(async ({ ctx, input }) => {
      const { cluster } = await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId });
      return applyConfiguration(ctx.runtime, ctx.request, { id: input.clusterId, name: cluster.name }, input);
    }),
  approve: procedure(applying)
    .meta({
      openapi: {
        method: 'POST',
        path: `${base}/approvals`,
        tags,
        summary: 'Approve a previewed plan by its hash, as the second person an environment may require; audited',
      },
    })
    .input(approveInput)
    .output(approveOutput)
    .mutation(async ({ ctx, input }) => {
      const { cluster } = await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId });
      return approvePlan(ctx.runtime, ctx.request, { id: input.clusterId, name: cluster.name }, input);
    }),
  revisions: revisionsRouter,
  secrets: secretsRouter,
});
