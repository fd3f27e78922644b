// The one line of a cluster's consumer-health summary. "No queue needs attention" must mean the queues were judged:
// a cluster whose nodes stopped answering has only INSUFFICIENT_DATA verdicts (no samples in the window), and it read
// as healthy on the overview beside its DOWN badge.
import { NEEDS_ATTENTION, type Verdict } from '@/base/consumer-verdicts.ts';
import { plural } from '@/ui/command-palette/palette-search.ts';

export function healthSummaryText(counts: Readonly<Record<Verdict, number>>): string {
  const attention = NEEDS_ATTENTION.reduce((sum, verdict) => sum + counts[verdict], 0);
  const notJudged = counts.INSUFFICIENT_DATA;
  const unjudgedNote = notJudged > 0 ? `; ${plural(notJudged, 'queue')} not judged (too few samples)` : '';
  if (attention > 0)
    return `${plural(attention, 'queue')} ${attention === 1 ? 'needs' : 'need'} attention${unjudgedNote}`;
  const judged = Object.values(counts).reduce((sum, count) => sum + count, 0) - notJudged;
  if (judged === 0 && notJudged > 0) return `${plural(notJudged, 'queue')} not judged yet (too few samples)`;
  return `No queue needs attention${unjudgedNote}`;
}
