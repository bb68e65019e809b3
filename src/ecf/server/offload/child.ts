/**
 * Entry of an offload child process (forked by ./pool.ts over an IPC channel with `serialization: 'advanced'`).
 * Runs one task at a time and answers `{id, ok, value | error}`; exits when the parent goes away.
 */
import { block, TASKS, type TaskName } from './tasks.js';

interface Request {
  id: number;
  task: TaskName;
  input: unknown;
}

const testTasks = process.env.ECF_OFFLOAD_TEST_TASKS === '1';
const send = (m: unknown) => process.send?.(m);

process.on('disconnect', () => process.exit(0));
process.on('message', async (m: Request) => {
  try {
    let value: unknown;
    if (m.task === 'block') {
      if (!testTasks) throw new Error('unknown offload task "block"');
      value = block(m.input as { ms: number });
    } else {
      const fn = TASKS[m.task] as ((input: unknown) => unknown) | undefined;
      if (!fn) throw new Error(`unknown offload task "${String(m.task)}"`);
      value = await fn(m.input);
    }
    send({ id: m.id, ok: true, value });
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    const extra = err as { code?: unknown; issues?: unknown };
    send({ id: m.id, ok: false, error: { name: err.name, message: err.message, code: extra.code, issues: extra.issues } });
  }
});
send({ ready: true });
