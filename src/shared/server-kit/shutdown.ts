/**
 * Waits for SIGINT / SIGTERM (or an abort signal, which tests use) and says so on stderr; shared by the
 * long-running commands (`ecf serve`, `npm start`, `ecf worker`).
 */
export async function waitForStop(io: { stderr: (s: string) => void }, signal: AbortSignal | undefined, then: string): Promise<void> {
  const handlers: [NodeJS.Signals, () => void][] = [];
  await new Promise<void>((resolve) => {
    for (const name of ['SIGINT', 'SIGTERM'] as const) {
      const h = () => {
        io.stderr(`received ${name}, ${then}\n`);
        resolve();
      };
      handlers.push([name, h]);
      process.once(name, h);
    }
    if (signal?.aborted) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  for (const [name, h] of handlers) process.off(name, h);
}
