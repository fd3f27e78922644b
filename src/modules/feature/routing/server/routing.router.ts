// The routing API: the graph (graph.router.ts), where a message would go (where.router.ts) and divert create and
// remove (diverts.router.ts), one tRPC namespace.
import { mergeRouters } from '@/modules/kernel/access/index.ts';
import { divertsRouter } from './diverts/diverts.router.ts';
import { graphRouter } from './graph/graph.router.ts';
import { whereRouter } from './where/where.router.ts';

export const routingRouter = mergeRouters(graphRouter, whereRouter, divertsRouter);
