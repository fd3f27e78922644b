// The stream's query, parsed once at the edge: the route guards the cluster it names and the endpoint subscribes to
// that same value. A parameter it reads given twice is refused outright: a guard reading the first value and a
// subscription reading the last once let a caller with no grant read another cluster's events. A repeated parameter
// the stream does not read is ignored like any other it does not read, and never named back: a name is the caller's
// input, and a card number typed as one would come back in clear.
import { z } from 'zod';
import { type Problem, validationProblem } from '@/modules/kernel/core/index.ts';

export interface StreamQuery {
  readonly clusterId: string;
  /** The topics named, each once, in the order first named. */
  readonly topics: readonly string[];
  /**
   * The `topics` list as sent, split at its commas and trimmed (an empty item stays, as ''): an item's index is its
   * position, by which the `ready` event names a dropped topic without repeating what was typed.
   */
  readonly listed: readonly string[];
}

const PARAMETERS: readonly string[] = ['clusterId', 'topics'];

const streamQuerySchema = z.object({
  clusterId: z.uuid({ message: 'clusterId must be a UUID' }),
  topics: z.string().min(1, 'topics must list at least one topic, separated by commas'),
});

export function parseStreamQuery(url: URL): { query: StreamQuery } | { problem: Problem } {
  const names = [...url.searchParams.keys()].filter((name) => PARAMETERS.includes(name));
  const repeated = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
  if (repeated.length > 0) {
    return {
      problem: validationProblem(repeated.map((field) => ({ field, message: 'must be given at most once' }))),
    };
  }
  const parsed = streamQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
    return { problem: validationProblem(errors) };
  }
  const listed = parsed.data.topics.split(',').map((topic) => topic.trim());
  const topics = [...new Set(listed.filter(Boolean))];
  return { query: { clusterId: parsed.data.clusterId, topics, listed } };
}
