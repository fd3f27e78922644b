// A retried browser test starts from what its first attempt left (ADR 17): this deletes, over the API, every item a
// list answers that the test will create again, so the retry finds the app as the first attempt did.
import { expect } from 'vitest';

export async function deleteEveryListed<Row extends { id: string }>(
  baseUrl: string,
  headers: Record<string, string>,
  listPath: string,
  itemPath: (row: Row) => string,
  which: (row: Row) => boolean = () => true,
): Promise<void> {
  const listed = await fetch(`${baseUrl}/api/v1${listPath}`, { headers });
  const { items } = (await listed.json()) as { items: Row[] };
  for (const row of items.filter(which)) {
    const removed = await fetch(`${baseUrl}/api/v1${itemPath(row)}`, { method: 'DELETE', headers });
    expect(removed.status).toBe(200);
  }
}
