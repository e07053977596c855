/** An unbounded single-consumer queue: push() from anywhere, `for await` on the other side; close() ends it. */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | undefined;
  private done = false;

  get closed(): boolean {
    return this.done;
  }

  push(item: T): void {
    if (this.done) return;
    this.items.push(item);
    this.wake?.();
  }

  /** Takes out what nobody has consumed yet. */
  drain(): T[] {
    return this.items.splice(0);
  }

  close(): void {
    this.done = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.done) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }
}
