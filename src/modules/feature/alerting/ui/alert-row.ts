// A row of the alerts list as the API returns it; the actions and their dialogs act on one.
import type { RouterOutputs } from '@/ui/data/trpc.ts';

export type AlertRow = RouterOutputs['alerting']['list']['items'][number];
