/**
 * Stopping an HTTP server served with @hono/node-server: stop accepting, close idle keep-alive connections at
 * once, and force the rest closed after 5 seconds. Kernel material (server kit).
 */
import type { serve } from '@hono/node-server';

export function closeHttp(server: ReturnType<typeof serve>): Promise<void> {
  return new Promise((resolve) => {
    const s = server as unknown as import('node:http').Server;
    const force = setTimeout(() => s.closeAllConnections?.(), 5_000);
    force.unref();
    s.close(() => {
      clearTimeout(force);
      resolve();
    });
    s.closeIdleConnections?.();
  });
}
