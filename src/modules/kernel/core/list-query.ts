// The shared shape of every list endpoint: `q`, `sort`, `page`, `pageSize` in, `items` and `total` out.
import { z } from 'zod';

const MAX_PAGE_SIZE = 500;

/** `sort` is a field name, descending when prefixed with `-`; only the listed fields are accepted. */
export function sortSchema<const Field extends string>(sortFields: readonly [Field, ...Field[]], defaultSort: string) {
  const sortValues = sortFields.flatMap((field) => [field, `-${field}`]) as [string, ...string[]];
  return z
    .enum(sortValues)
    .default(defaultSort)
    .describe(`One of ${sortValues.join(', ')}`);
}

export function listQuerySchema<const Field extends string>(
  sortFields: readonly [Field, ...Field[]],
  defaultSort: string,
) {
  return z.object({
    q: z.string().trim().max(200).optional().describe('Free-text filter'),
    sort: sortSchema(sortFields, defaultSort),
    page: z.coerce.number().int().min(1).default(1).describe('1-based page number'),
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  });
}

export interface SortOrder<Field extends string> {
  readonly field: Field;
  readonly direction: 'asc' | 'desc';
}

export function parseSort<Field extends string>(sort: string): SortOrder<Field> {
  return sort.startsWith('-')
    ? { field: sort.slice(1) as Field, direction: 'desc' }
    : { field: sort as Field, direction: 'asc' };
}

export function pageOf<Item>(items: Item[], total: number, page: number, pageSize: number) {
  return { items, total, page, pageSize };
}

export function listResultSchema<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}
