// Watches a running plugin process from the host: resident memory and CPU time from /proc (Linux), and the event
// loop through pings over IPC. It only decides; the caller kills. Without /proc (not Linux) the pings remain.
import { readFile } from 'node:fs/promises';
import type { PluginLimits } from './limits.ts';

export type WatchdogVerdict = { reason: 'memory' | 'cpu' | 'unresponsive'; detail: string };

// USER_HZ, the unit of utime and stime in /proc/<pid>/stat: 100 on every Linux architecture Node supports.
const TICK_MS = 10;
const MINUTE_MS = 60_000;

async function sample(pid: number): Promise<{ rssMb: number; cpuMs: number } | undefined> {
  try {
    const [status, stat] = await Promise.all([
      readFile(`/proc/${pid}/status`, 'utf8'),
      readFile(`/proc/${pid}/stat`, 'utf8'),
    ]);
    const rssKb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
    // The command name in parentheses may hold spaces: the fields are counted from after its closing parenthesis,
    // where field 3 (state) starts, so utime (14) and stime (15) are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    return { rssMb: rssKb / 1024, cpuMs: ticks * TICK_MS };
  } catch {
    return undefined; // gone, or no /proc
  }
}

export interface Watchdog {
  pong(): void;
  stop(): void;
}

export function startWatchdog(options: {
  pid: number;
  limits: PluginLimits;
  ping: () => void;
  onVerdict: (verdict: WatchdogVerdict) => void;
}): Watchdog {
  const { pid, limits, ping, onVerdict } = options;
  let lastPong = Date.now();
  let stopped = false;
  const cpu: { at: number; cpuMs: number }[] = [];

  const verdict = (value: WatchdogVerdict) => {
    if (stopped) return;
    stop();
    onVerdict(value);
  };

  const pinger = setInterval(() => {
    const silentMs = Date.now() - lastPong;
    if (silentMs > limits.unresponsiveMs)
      verdict({ reason: 'unresponsive', detail: `no answer to pings for ${silentMs} ms: its event loop is stuck` });
    else ping();
  }, limits.pingIntervalMs);

  let sampling = false;
  const sampler = setInterval(() => {
    if (sampling) return; // a slow /proc read under load: skip a beat rather than pile up
    sampling = true;
    void sample(pid).then((now) => {
      sampling = false;
      if (!now) return;
      if (now.rssMb > limits.rssMb) {
        verdict({ reason: 'memory', detail: `resident memory ${Math.round(now.rssMb)} MB > ${limits.rssMb} MB` });
        return;
      }
      const at = Date.now();
      cpu.push({ at, cpuMs: now.cpuMs });
      // Keep the newest sample at least a minute old as the window's start.
      while (cpu.length > 1 && (cpu[1]?.at ?? at) <= at - MINUTE_MS) cpu.shift();
      const usedMs = now.cpuMs - (cpu[0]?.cpuMs ?? 0);
      if (usedMs > limits.cpuMsPerMinute)
        verdict({ reason: 'cpu', detail: `${usedMs} ms of CPU time in the last minute > ${limits.cpuMsPerMinute} ms` });
    });
  }, limits.sampleIntervalMs);

  function stop() {
    stopped = true;
    clearInterval(pinger);
    clearInterval(sampler);
  }

  return { pong: () => (lastPong = Date.now()), stop };
}
