import { performance } from 'node:perf_hooks';

/**
 * In a child started by ./children.ts with `ipc: true`: answers `{ usage: true, gc }` with its own CPU time, its event
 * loop's busy and idle time, and memory (a full GC first when asked and the process runs with --expose-gc). Without an
 * IPC channel it does nothing.
 */
export function answerUsageOverIpc(): void {
  if (!process.send) return;
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', (m: { usage?: boolean; gc?: boolean }) => {
    if (!m?.usage) return;
    const forced = m.gc === true && typeof gc === 'function';
    if (forced) gc!();
    const mem = process.memoryUsage();
    const elu = performance.eventLoopUtilization();
    process.send!({
      cpu: process.cpuUsage(),
      eventLoop: { idle: elu.idle, active: elu.active },
      heapUsedMb: Math.round((mem.heapUsed / 2 ** 20) * 10) / 10,
      gcForced: forced,
      rssMb: Math.round((mem.rss / 2 ** 20) * 10) / 10,
    });
  });
  // The IPC channel must not keep the process alive once its server closed.
  process.channel?.unref();
}
