import type { ReactNode } from 'react';

export interface Column<Row> {
  readonly id: string;
  readonly header: string;
  readonly cell: (row: Row) => ReactNode;
  /** The server's sort field; the header becomes a sort button when set. */
  readonly sortField?: string;
  /** Hidden until the viewer picks it in the column menu. */
  readonly hiddenByDefault?: boolean;
  /** Numbers read best right-aligned, header and cells alike. */
  readonly align?: 'right';
  /** Fixed width keeps columns from jumping as data arrives. */
  readonly width?: number | string;
}
