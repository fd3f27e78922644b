// alert_rule and flotilla_setting: the alerting module's rules and the kernel's runtime settings behind one `op`
// discriminator each, through the same procedures as REST (their permissions, validation and audit). Deleting a
// rule is the destructive op: its real run needs confirm equal to the rule's name.
import { z } from 'zod';
import { gateArguments, nextStep, passGates } from './gates.ts';
import { callProcedure } from './procedure-errors.ts';
import { asRow, asRows, pick, pickList } from './project.ts';
import { checkChoice, defineTool, type McpContext, requireArgument, ToolFailure } from './tool-kit.ts';

const RULE_FIELDS = ['id', 'name', 'condition', 'clusterId', 'pattern', 'severity', 'forSeconds', 'enabled'];
const RULE_OPS = ['list', 'create', 'update', 'delete'] as const;
const RULE_PAGES = 10;

async function findRule(context: McpContext, id: string): Promise<Record<string, unknown>> {
  for (let page = 1; page <= RULE_PAGES; page++) {
    const answer = asRow(await callProcedure(context, 'alerting.listRules', { page, pageSize: 500 }));
    const rule = asRows(answer.items).find((candidate) => candidate.id === id);
    if (rule) return rule;
    if (page * 500 >= Number(answer.total)) break;
  }
  throw new ToolFailure(`No alert rule with id ${id}. alert_rule op=list shows the rules and their ids.`);
}

function ruleAnswer(answer: unknown, next: string) {
  const row = asRow(answer);
  return {
    rule: pick(asRow(row.rule), RULE_FIELDS),
    dryRun: row.dryRun,
    ...(row.wouldFire ? { wouldFire: row.wouldFire } : {}),
    ...(row.dryRun === true ? { next } : {}),
  };
}

export const alertRuleTool = defineTool({
  name: 'alert_rule',
  module: 'alerting',
  description: () =>
    'Alert rules. op: list|create|update|delete. rule: the rule as JSON (name, condition {kind, params}, pattern, severity, forSeconds, channelIds).',
  arguments: {
    op: z.string().max(40),
    id: z.string().max(100).optional().describe('update, delete'),
    rule: z.record(z.string(), z.unknown()).optional().describe('create, update'),
    q: z.string().max(200).optional(),
    dryRun: gateArguments.dryRun,
    confirm: gateArguments.confirm,
  },
  run: async (args, context) => {
    const op = checkChoice('op', args.op, RULE_OPS);
    if (op === 'list') {
      return pickList(
        await callProcedure(context, 'alerting.listRules', { pageSize: 100, ...(args.q ? { q: args.q } : {}) }),
        RULE_FIELDS,
      );
    }
    if (op === 'create') {
      const rule = requireArgument(args.rule, 'op=create needs rule (a JSON object: name, condition, …).');
      const subject = { kind: 'alert rule', name: typeof rule.name === 'string' ? rule.name : '', destructive: false };
      const { dryRun } = passGates(args, subject);
      return ruleAnswer(await callProcedure(context, 'alerting.createRule', { ...rule, dryRun }), nextStep(subject));
    }
    const id = requireArgument(args.id, `op=${op} needs id (alert_rule op=list shows the ids).`);
    const existing = await findRule(context, id);
    const subject = { kind: 'alert rule', name: String(existing.name), destructive: op === 'delete' };
    if (op === 'update') {
      const rule = requireArgument(args.rule, 'op=update needs rule (the fields to change, as JSON).');
      const { dryRun } = passGates(args, subject);
      return ruleAnswer(
        await callProcedure(context, 'alerting.updateRule', { ...rule, id, dryRun }),
        nextStep(subject),
      );
    }
    const { dryRun } = passGates(args, subject);
    const answer = asRow(await callProcedure(context, 'alerting.deleteRule', { id, dryRun }));
    return {
      ...pick(answer, ['id', 'deleted', 'dryRun']),
      name: existing.name,
      ...(dryRun ? { next: nextStep(subject) } : {}),
    };
  },
});

const SETTING_OPS = ['list', 'get', 'set', 'reset'] as const;
const SETTING_FIELDS = ['key', 'value', 'defaultValue', 'rule', 'appliesAt', 'source', 'inEffect', 'description'];

export const settingTool = defineTool({
  name: 'flotilla_setting',
  module: 'settings',
  description: () =>
    'Runtime settings (scrape tiers, safety.bulk-cap, retention…). op: list|get|set|reset; set needs key and value.',
  arguments: {
    op: z.string().max(40),
    key: z.string().max(200).optional(),
    value: z.union([z.string(), z.number(), z.boolean()]).optional(),
    q: z.string().max(200).optional().describe('list: text filter'),
    dryRun: gateArguments.dryRun,
  },
  run: async (args, context) => {
    const op = checkChoice('op', args.op, SETTING_OPS);
    if (op === 'list') {
      const list = pickList(
        await callProcedure(context, 'settings.list', { pageSize: 200, ...(args.q ? { q: args.q } : {}) }),
        ['key', 'value', 'appliesAt'],
      );
      return list;
    }
    const key = requireArgument(args.key, `op=${op} needs key (flotilla_setting op=list shows them).`);
    if (op === 'get') return pick(asRow(await callProcedure(context, 'settings.get', { key })), SETTING_FIELDS);
    const subject = { kind: 'setting', name: key, destructive: false };
    const { dryRun } = passGates(args, subject);
    const input =
      op === 'set'
        ? { key, value: requireArgument(args.value, 'op=set needs value (a string, number or boolean).'), dryRun }
        : { key, dryRun };
    const answer = asRow(await callProcedure(context, op === 'set' ? 'settings.update' : 'settings.reset', input));
    return {
      ...pick(answer, ['key', 'previousValue', 'value', 'dryRun', 'appliesAt']),
      ...(dryRun ? { next: nextStep(subject) } : {}),
    };
  },
});
