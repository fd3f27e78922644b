// The contract of an alert condition (the `alerting.conditions` extension point): given a cluster and a rule's
// parameters, the condition answers one observation per subject (a queue, a node…) it can judge now — firing or
// not, with the value it judged. A subject no longer observed resolves its open alert.
import type { z } from 'zod';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import { createExtensionPoint, type ModuleRegistry } from '@/modules/kernel/plugin/index.ts';

interface ConditionContext {
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly clusterId: string;
  /** The rule's parameters, already parsed by the condition's `params` schema. */
  readonly params: unknown;
  /** Whether a subject (queue or address name) falls under the rule's pattern; always true without one. */
  readonly matches: (subject: string) => boolean;
  /**
   * The items whose name falls under the rule's pattern. Prefer it to `matches` over a list read through `once`:
   * a name or prefix pattern picks from an index of that list shared by every rule, instead of testing each name.
   */
  readonly select: <T>(items: readonly T[], nameOf: (item: T) => string) => readonly T[];
  readonly now: Date;
  /** The enabled modules: a condition reads another module's extension point through it (none installed: none). */
  readonly registry: ModuleRegistry;
  /**
   * One read per evaluation of the cluster, however many rules ask: `load` runs for the first caller of `key`, the
   * others share its answer (a thousand queue rules read the queue numbers once).
   */
  readonly once: <T>(key: string, load: () => Promise<T>) => Promise<T>;
}

export interface ConditionResult {
  readonly subject: string;
  readonly value: number | null;
  readonly firing: boolean;
}

export interface AlertCondition {
  /** Validates a rule's parameters (refused at rule creation when they do not parse). */
  readonly params: z.ZodType;
  evaluate(context: ConditionContext): Promise<ConditionResult[]>;
}

export interface AlertConditionDeclaration {
  readonly kind: string;
  readonly describe: string;
  readonly load: () => Promise<AlertCondition>;
}

/** The conditions alert rules can name (`condition.kind`): alerting's own and any module's (module.ts lists it). */
export const alertConditions = createExtensionPoint<AlertConditionDeclaration>({
  id: 'alerting.conditions',
  owner: 'alerting',
  cardinality: 'many',
});
