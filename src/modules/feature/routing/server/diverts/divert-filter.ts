// A divert's filter is a JMS selector the broker parses when the divert is created; one it cannot parse fails on
// every node after the audit row. Refused here first (400, the field named, where and why), with nothing done, by the
// module's own parser of Artemis's selector grammar (model/selector).
import { ProblemError, validationProblem } from '@/modules/kernel/core/index.ts';
import { SelectorSyntaxError } from '../../model/selector/selector-lexer.ts';
import { parseSelector } from '../../model/selector/selector-parser.ts';

export function refuseBadFilter(filter: string | null): void {
  if (filter === null || filter === '') return;
  try {
    parseSelector(filter);
  } catch (error) {
    if (!(error instanceof SelectorSyntaxError)) throw error;
    throw new ProblemError(
      validationProblem(
        [{ field: 'filter', message: `not a JMS selector: ${error.message}` }],
        `The filter is not a JMS selector the broker would take: ${error.message}. Nothing was done.`,
      ),
    );
  }
}
