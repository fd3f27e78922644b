// runRequester in a process of its own (rr-clients.ts, runRequesterApart): its latencies are measured on an event
// loop that nothing else shares. In a test process that also hosts Flotilla's worker, a busy loop delays the
// requester's reply callback and adds that wait to what it "measured". Arguments as one JSON argument; the run's
// result printed as one JSON line.
import { runRequester, type RequesterOptions, type RrBroker } from './rr-clients.ts';

const raw = process.argv[2];
if (!raw) throw new Error('expected { broker, options } as one JSON argument');
const { broker, options } = JSON.parse(raw) as { broker: RrBroker; options: RequesterOptions };
const run = await runRequester(broker, options);
process.stdout.write(`${JSON.stringify(run)}\n`);
process.exit(0);
