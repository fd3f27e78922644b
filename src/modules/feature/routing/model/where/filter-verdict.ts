// One broker-side filter (a queue's or a divert's) judged for a probe: whether it takes the message, whether that is
// certain, and what to tell about it (a filter the broker could not have parsed, JMS header names it does not
// translate, values not known here).
import { evaluateSelector } from '../selector/selector-eval.ts';
import { SelectorSyntaxError } from '../selector/selector-lexer.ts';
import { parseSelector, type SelectorExpression } from '../selector/selector-parser.ts';
import { probeLookup, UNTRANSLATED_JMS_HEADERS } from './probe-lookup.ts';
import type { ProbeMessage, WhereNote } from './where-types.ts';

export interface FilterVerdict {
  readonly matches: boolean;
  /** False when the verdict rests on something not known here. */
  readonly certain: boolean;
  readonly notes: readonly WhereNote[];
  readonly unknowns: readonly WhereNote[];
}

const ALWAYS: FilterVerdict = { matches: true, certain: true, notes: [], unknowns: [] };

const parsed = new Map<string, SelectorExpression | SelectorSyntaxError>();
const MAX_PARSED = 500;

function parseOnce(filter: string): SelectorExpression | SelectorSyntaxError {
  let entry = parsed.get(filter);
  if (entry === undefined) {
    try {
      entry = parseSelector(filter);
    } catch (error) {
      if (!(error instanceof SelectorSyntaxError)) throw error;
      entry = error;
    }
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(filter, entry);
  }
  return entry;
}

export interface FilterSubject {
  /** The item holding the filter, e.g. `queue:orders`. */
  readonly itemId: string;
  /** How to name it in words, e.g. `queue orders`. */
  readonly label: string;
  readonly filter: string | null;
}

/**
 * Judges `subject`'s filter on the message as it is at `address`. `transformedBy` names a divert upstream whose
 * transformer may have changed the message: the verdict is then on the untransformed message and not certain.
 */
export function judgeFilter(
  subject: FilterSubject,
  message: ProbeMessage,
  address: string,
  transformedBy: string | null,
): FilterVerdict {
  // The broker trims the filter and treats an empty one as none (FilterImpl.createFilter).
  const filter = subject.filter?.trim() ?? '';
  if (filter === '') return ALWAYS;
  const expression = parseOnce(filter);
  const { itemId, label } = subject;
  if (expression instanceof SelectorSyntaxError) {
    const text = `The filter of ${label} is not a selector the broker can parse (${expression.message}); taken as not matching.`;
    return { matches: false, certain: false, notes: [], unknowns: [{ kind: 'invalid-filter', text, itemId }] };
  }
  const names = new Set<string>();
  const lookup = probeLookup(message, address);
  const verdict = evaluateSelector(expression, (name) => {
    names.add(name);
    return lookup(name);
  });
  const notes: WhereNote[] = [];
  const unknowns: WhereNote[] = [];
  for (const name of names) {
    const instead = UNTRANSLATED_JMS_HEADERS[name];
    if (instead)
      notes.push({
        kind: 'jms-header',
        text: `The filter of ${label} names ${name}: a broker-side filter reads it as a property of that name, which messages do not carry; the header is ${instead}.`,
        itemId,
      });
  }
  if (verdict.unknowable.length > 0)
    unknowns.push({
      kind: 'unknowable',
      text: `The filter of ${label} reads ${verdict.unknowable.join(', ')}, not known before the message is sent: evaluated as absent.`,
      itemId,
    });
  if (verdict.readsBody)
    unknowns.push({
      kind: 'body',
      text: `The filter of ${label} queries the body (XPATH/XQUERY), which is not part of the question.`,
      itemId,
    });
  if (transformedBy !== null)
    unknowns.push({
      kind: 'transformer',
      text: `The filter of ${label} was evaluated on the message before divert ${transformedBy}'s transformer changed it.`,
      itemId,
    });
  if (verdict.failure !== null)
    notes.push({
      kind: 'filter',
      text: `The filter of ${label} fails on this message (${verdict.failure}): the broker does not select it.`,
      itemId,
    });
  return { matches: verdict.selected, certain: unknowns.length === 0, notes, unknowns };
}
