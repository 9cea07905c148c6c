/** A binary min-heap of (time, token id), ties by token id: the merge of the tokens' streams. */
export class TimeHeap {
  private readonly times: number[] = [];
  private readonly ids: number[] = [];

  get size(): number {
    return this.times.length;
  }

  push(time: number, id: number): void {
    const { times, ids } = this;
    let i = times.length;
    times.push(time);
    ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): { time: number; id: number } {
    const { times, ids } = this;
    const top = { time: times[0]!, id: ids[0]! };
    const lastTime = times.pop()!;
    const lastId = ids.pop()!;
    if (times.length > 0) {
      times[0] = lastTime;
      ids[0] = lastId;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < times.length && this.less(l, m)) m = l;
        if (r < times.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const ta = this.times[a]!;
    const tb = this.times[b]!;
    return ta < tb || (ta === tb && this.ids[a]! < this.ids[b]!);
  }

  private swap(a: number, b: number): void {
    const { times, ids } = this;
    [times[a], times[b]] = [times[b]!, times[a]!];
    [ids[a], ids[b]] = [ids[b]!, ids[a]!];
  }
}
