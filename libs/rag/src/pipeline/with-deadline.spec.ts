import { delay } from '../testing/fake-chat-model';
import { withDeadline } from './with-deadline';

describe('withDeadline', () => {
  it('returns the result of a task that finishes in time', async () => {
    await expect(withDeadline('task', 200, async () => 'done')).resolves.toBe('done');
  });

  it("rejects at the deadline and aborts the task's signal with the timeout error", async () => {
    let seen: AbortSignal | undefined;
    const started = Date.now();
    await expect(
      withDeadline('HyDE', 50, (signal) => {
        seen = signal;
        return new Promise(() => undefined); // a task that ignores its signal never settles
      }),
    ).rejects.toThrow('HyDE took longer than 50 ms');
    expect(Date.now() - started).toBeLessThan(300);
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as Error).message).toBe('HyDE took longer than 50 ms');
  });

  it('rejects at once when the parent aborts, with its reason', async () => {
    const parent = new AbortController();
    setTimeout(() => parent.abort(new Error('client went away')), 20);
    let seen: AbortSignal | undefined;
    await expect(
      withDeadline(
        'expansion',
        5000,
        (signal) => {
          seen = signal;
          return new Promise(() => undefined);
        },
        parent.signal,
      ),
    ).rejects.toThrow('client went away');
    expect(seen?.aborted).toBe(true);
  });

  it('does not start the task when the parent has already aborted', async () => {
    const parent = new AbortController();
    parent.abort(new Error('too late'));
    const task = jest.fn(() => delay(10));
    await expect(withDeadline('x', 100, task, parent.signal)).rejects.toThrow('too late');
    expect(task).not.toHaveBeenCalled();
  });
});
