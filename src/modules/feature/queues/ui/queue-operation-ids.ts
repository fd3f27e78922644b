// The queue page's operations by the id the URL names (`?operate=purge`), so a link can open one (the grid's row
// menu does), and the title each one's dialog is given.

const OPERATIONS = ['purge', 'delete-messages', 'move-messages', 'retry', 'pause', 'resume', 'delete-queue'] as const;
export type OperationId = (typeof OPERATIONS)[number];

export const isOperation = (value: string | null): value is OperationId =>
  value !== null && (OPERATIONS as readonly string[]).includes(value);

export const TITLES: Record<OperationId, string> = {
  purge: 'Purge',
  'delete-messages': 'Delete messages',
  'move-messages': 'Move messages',
  retry: 'Retry dead letters',
  pause: 'Pause',
  resume: 'Resume',
  'delete-queue': 'Delete queue',
};
