// The governance API: the content policy in force with its catalogue, a new version (dry run honoured, audited),
// the sample tester (what a caller without and with message:clear would see, under the policy in force or a draft),
// the findings, and what stored content is left to remask.
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { rolesHolding } from '@/modules/kernel/security/index.ts';
import { listFindings } from './findings-read.ts';
import {
  findingsInput,
  findingsOutput,
  policyOutput,
  remaskOutput,
  savePolicyInput,
  savePolicyOutput,
  testInput,
  testOutput,
} from './governance.schema.ts';
import { ACTIONS, DATA_CLASSES } from './policy/data-classes.ts';
import { detectorCatalogue } from './policy/detectors.ts';
import { enforceMessage, type MessageContent } from './policy/enforce.ts';
import { compilePolicy, RULE_TARGETS } from './policy/policy.ts';
import { policyStore } from './policy-store.ts';
import { remaskStatus } from './remask.ts';

const procedure = moduleProcedure('governance');
const tags = ['governance'];

export const governanceRouter = router({
  policy: procedure({ permission: 'governance:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/governance/policy',
        tags,
        summary: 'The content policy in force and what it can use',
      },
    })
    .output(policyOutput)
    .query(async ({ ctx }) => {
      const { policy } = await policyStore(ctx.runtime).current();
      return {
        policy,
        catalogue: {
          detectors: [...detectorCatalogue()],
          dataClasses: [...DATA_CLASSES],
          actions: [...ACTIONS],
          targets: [...RULE_TARGETS],
        },
        clearRoles: await rolesHolding(ctx.runtime.prisma, 'message:clear'),
      };
    }),

  savePolicy: procedure({ permission: 'governance:write' })
    .meta({
      openapi: {
        method: 'PUT',
        path: '/governance/policy',
        tags,
        summary: 'Put a new version of the content policy in force (every read applies it at once)',
      },
    })
    .input(savePolicyInput)
    .output(savePolicyOutput)
    .mutation(async ({ ctx, input }) => {
      const { dryRun, ...body } = input;
      const store = policyStore(ctx.runtime);
      const before = (await store.current()).policy.version;
      // Compiling checks what the schema cannot (every pattern builds).
      compilePolicy({ ...body, version: before + 1 });
      return audited(
        ctx.runtime.prisma,
        ctx.request,
        {
          action: 'governance.policy.save',
          target: `version ${String(before + 1)}`,
          parameters: { rules: body.rules.length, detectors: body.detectors, actions: body.actions },
          dryRun,
        },
        async () => {
          const policy = dryRun ? { ...body, version: before + 1 } : await store.save(body, ctx.request.actor.name);
          return { result: { policy, dryRun } };
        },
      );
    }),

  test: procedure({ permission: 'governance:read' })
    .meta({
      openapi: {
        method: 'POST',
        path: '/governance/test',
        tags,
        summary: 'What a sample message looks like to a caller without and with message:clear (changes nothing)',
      },
      dryRun: 'refused',
    })
    .input(testInput)
    .output(testOutput)
    .mutation(async ({ ctx, input }) => {
      const compiled = input.draft
        ? compilePolicy({ ...input.draft, version: -1 })
        : (await policyStore(ctx.runtime).current()).compiled;
      const content: MessageContent = {
        address: input.address,
        headers: input.headers ?? {},
        properties: input.properties ?? {},
        body:
          input.body === undefined || input.body === ''
            ? { kind: 'empty' }
            : { kind: 'text', text: input.body, contentType: input.contentType },
      };
      const view = (clear: boolean) => {
        const governed = enforceMessage(compiled, content, { clear });
        return { ...governed.value, redactions: [...governed.redactions] };
      };
      return {
        policyVersion: compiled.version,
        masked: view(false),
        clear: view(true),
        clearRoles: await rolesHolding(ctx.runtime.prisma, 'message:clear'),
      };
    }),

  findings: procedure({ permission: 'governance:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/governance/findings',
        tags,
        summary: 'Detections in fields no rule covers, with the rule that would cover each',
      },
    })
    .input(findingsInput)
    .output(findingsOutput)
    .query(({ ctx, input }) => listFindings(ctx.runtime.db, input)),

  remask: procedure({ permission: 'governance:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/governance/remask',
        tags,
        summary: 'Stored content still masked by an older policy version, per owning module',
      },
    })
    .output(remaskOutput)
    .query(({ ctx }) => remaskStatus(ctx.runtime)),
});
