// The page of messages the browser shows, worked out from one browse answer: its rows, what a search of the page
// looks through, the total the table pages by (the broker gives none) and the nodes to pick from. Pure, so it is
// tested without a broker.
import { bytesOf, textOf } from './body-format.ts';
import type { MessageRow } from './message-columns.tsx';
import type { MessageView } from './message-fields.ts';

/** A selector every message matches: a page read through it comes over the management channel, with broker ids. */
export const EVERY_MESSAGE = 'TRUE';

/** The page's rows, each keyed by its place in the queue and its id (ids need not be unique on a page). */
export function pageRows(messages: readonly MessageView[], offset: number): MessageRow[] {
  return messages.map((message, index) => ({ ...message, key: `${offset + index}:${message.messageId}` }));
}

/** The text a search of the page looks through: the id, the properties and a text body. */
export function searchText(row: MessageRow): string {
  const body = row.body.base64 && row.body.kind !== 'binary' ? textOf(bytesOf(row.body.base64)) : '';
  return [row.messageId, JSON.stringify(row.properties), body].join(' ').toLowerCase();
}

/**
 * The total the table pages by. The broker gives no total with a page: past the last page it is exact, before it
 * the node's count from the scrape (absent with a selector) or one more than what was read says there is more.
 * A search of the page counts what it matched.
 */
export function pageTotal(page: {
  readonly hasMore: boolean;
  /** Messages read up to the end of this page. */
  readonly read: number;
  /** How many rows a search of the page matched; undefined when nothing is searched. */
  readonly matched: number | undefined;
  /** The scrape's message count of the node; undefined when a selector makes it no bound. */
  readonly nodeCount: number | undefined;
}): number {
  if (page.matched !== undefined) return page.matched;
  if (!page.hasMore) return page.read;
  return Math.max(page.read + 1, page.nodeCount ?? 0);
}

/** The nodes holding the queue, as the node picker lists them. */
export function nodeOptions(
  cells: readonly { readonly nodeId: string; readonly brokerName: string | null; readonly serving: boolean }[],
): { value: string; label: string }[] {
  return cells.map((cell) => ({
    value: cell.nodeId,
    label: `${cell.brokerName ?? cell.nodeId}${cell.serving ? '' : ' (not serving)'}`,
  }));
}
