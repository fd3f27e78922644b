// The divert row menu (`divert.actions`), wherever a divert is listed (the Diverts tab, the graph's facts): copy its
// name, open its source address, and remove it — a link to the Diverts tab with the remove dialog open, which
// previews, confirms and gates it.
import { copyText } from '@/ui/parts/copy-text.ts';
import type { RowMenuContribution, RowTarget } from '@/ui/slots/contribution-types.ts';
import { addressPagePath, removeDivertPath } from './divert-paths.ts';

/** The divert's source address, when the row carries it. */
const sourceOf = (target: RowTarget): string => {
  const address = (target.row as { address?: unknown } | null)?.address;
  return typeof address === 'string' ? address : '';
};

export const divertActions: readonly RowMenuContribution[] = [
  {
    slot: 'divert.actions',
    id: 'open-source-address',
    section: 'Open',
    label: 'Open source address',
    href: (target) => addressPagePath(target.clusterId ?? '', sourceOf(target)),
    visible: (target) => Boolean(target.clusterId && sourceOf(target)),
  },
  {
    slot: 'divert.actions',
    id: 'copy-name',
    section: 'Copy',
    label: 'Copy name',
    run: async (target) => {
      await copyText(target.key);
      return `Copied ${target.key}`;
    },
  },
  {
    slot: 'divert.actions',
    id: 'remove',
    section: 'Destroy',
    label: 'Remove divert…',
    href: (target) => removeDivertPath(target.clusterId ?? '', target.key),
    visible: (target) => Boolean(target.clusterId),
  },
];
