// The clusters module's per-process start hook: a web process ends what it holds for nodes removed anywhere in the
// fleet (native connections of browse and send, management clients, limiters, health state) from the moment it opens,
// whichever feature made them. The worker's HA service keeps its own follower, ordered after the reconciler.
import { notificationsOf } from '@/modules/kernel/core/index.ts';
import type { ProcessStartContext } from '@/modules/kernel/plugin/index.ts';
import { followNodeRemovals } from '../ha/held-resources.ts';

export function start({ kind, db, bus }: ProcessStartContext): Promise<void> {
  if (kind === 'web') followNodeRemovals({ prisma: db.prisma, notifications: notificationsOf(bus), bus });
  return Promise.resolve();
}
