// A row of the channels list as the API returns it; the channels screen's parts all show or change one.
import type { RouterOutputs } from '@/ui/data/trpc.ts';

export type ChannelRow = RouterOutputs['alerting']['listChannels']['items'][number];
