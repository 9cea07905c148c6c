interface Waiting<In, Out> {
  readonly input: In;
  readonly resolve: (output: Out) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Gathers the calls made in one turn of the event loop (and while earlier batches are in
 * flight) into one call of `run`: one round trip and one transaction for many requests, as the
 * SQLite ledger's group commit does. At most `inFlight` batches run at once; calls made meanwhile
 * wait for the next. `run` answers each input, in order; when it throws, every call of the batch
 * rejects with its error.
 *
 * @example
 * const charges = new Batcher((inputs: Charge[]) => chargeAll(inputs), 2);
 * const outcome = await charges.push(charge);
 */
export class Batcher<In, Out> {
  private waiting: Array<Waiting<In, Out>> = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly run: (inputs: readonly In[]) => Promise<readonly Out[]>,
    private readonly inFlight: number,
  ) {}

  push(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.inFlight || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.running >= this.inFlight || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.running++;
    try {
      const outputs = await this.run(batch.map((w) => w.input));
      batch.forEach((w, i) => w.resolve(outputs[i]!));
    } catch (e) {
      for (const w of batch) w.reject(e);
    } finally {
      this.running--;
      this.schedule();
    }
  }
}
