/**
 * A thread that reads a tape beside the replay and posts what it read (a Parquet file's row
 * groups, a JSON file's blocks of swaps), and the reader's side of it; the thread that prints a
 * response's bulk beside its writer (`response-texts.ts`) posts its texts the same way. The two
 * share counters in a `SharedArrayBuffer` (the messages posted at {@link POSTED}, those taken at
 * {@link TAKEN}, more after these as a reading needs) and a port: the reader blocks on the posted
 * count with `Atomics.wait` and takes messages with `receiveMessageOnPort`, so the replay stays
 * synchronous.
 */
import { MessageChannel, receiveMessageOnPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { builtScriptIfAny } from '../built-script.js';

/** Places in the shared counters: messages posted by the reading thread; taken by the reader. */
export const POSTED = 0;
export const TAKEN = 1;

/** What the reading thread is started with beside its own data: the counters and its port. */
export interface ThreadLink {
  readonly signal: Int32Array;
  readonly port: MessagePort;
}

/** A reading thread, with the counters and the reader's end of the port. */
export interface ReadingThread extends ThreadLink {
  readonly worker: Worker;
}

/** The counters every reading thread is started with: as many as any reading uses. */
const COUNTERS = 4;

/** The compiled scripts of the threads that post to the replay's thread this way. */
export type ReadingScript =
  | 'io/json-tape/block-thread.js'
  | 'io/parquet/decode-thread.js'
  | 'io/response-text-thread.js';

/** Threads started before their reading was known ({@link prestartReadingThread}), by script. */
const prestarted = new Map<ReadingScript, ReadingThread>();

/**
 * Starts the compiled thread script `script` (a path under `src/`) with `data` and its link
 * (the counters, {@link POSTED} and {@link TAKEN} first); null without the compiled script (the
 * TypeScript sources run unbuilt) or when the process cannot start a thread. A thread of that
 * script started ahead ({@link prestartReadingThread}) is given `data` instead.
 */
export function startReadingThread(script: ReadingScript, data: object): ReadingThread | null {
  const early = prestarted.get(script);
  if (early === undefined) return launch(script, data);
  prestarted.delete(script);
  early.port.postMessage(data);
  return early;
}

/**
 * Starts a thread of `script` that waits for its data, for the next {@link startReadingThread}
 * of that script to take: a command that will read its tape so starts the thread (about 0.1 to
 * 0.3 s of node's start and the thread's modules) while its own modules load. A thread nobody
 * takes waits without keeping the process up.
 */
export function prestartReadingThread(script: ReadingScript): void {
  if (prestarted.has(script)) return;
  const thread = launch(script, { deferred: true });
  if (thread !== null) prestarted.set(script, thread);
}

/**
 * Lets the thread of `script` started ahead end, if no reading has taken it: its port is closed,
 * so it ends by itself once started. Not terminated: it may still be loading its modules, and
 * a thread terminated then can take the process down with it.
 */
export function stopPrestartedThread(script: ReadingScript): void {
  const thread = prestarted.get(script);
  if (thread === undefined) return;
  prestarted.delete(script);
  thread.port.close();
}

/** The scripts of the threads started ahead that no reading has taken yet. */
export function waitingThreads(): ReadingScript[] {
  return [...prestarted.keys()];
}

function launch(script: ReadingScript, data: object): ReadingThread | null {
  const url = builtScriptIfAny(script);
  if (url === null) return null;
  const signal = new Int32Array(new SharedArrayBuffer(COUNTERS * Int32Array.BYTES_PER_ELEMENT));
  const { port1, port2 } = new MessageChannel();
  try {
    const worker = new Worker(url, { workerData: { ...data, signal, port: port2 }, transferList: [port2] });
    worker.unref();
    return { worker, signal, port: port1 };
  } catch {
    // No thread to be had (a limit of the process).
    port1.close();
    return null;
  }
}

/**
 * The thread's side: runs `read` with the thread's start data, given as it started or, for a
 * thread started ahead, in the first message on its port.
 */
export function onReadingStart<T extends ThreadLink>(read: (start: T) => void): void {
  const given = workerData as T & { readonly deferred?: true };
  if (given.deferred !== true) {
    read(given);
    return;
  }
  given.port.once('message', (data: object) => read({ ...data, signal: given.signal, port: given.port } as T));
}

/** Stops a reading thread: the port closed, the thread terminated. */
export function stopReadingThread(thread: ReadingThread): void {
  thread.port.close();
  void thread.worker.terminate();
}

/** The thread's side: posts `message`, then counts it (a reader that found no message waits for the count to move). */
export function postCounted(link: ThreadLink, message: unknown, transfer: ArrayBuffer[] = []): void {
  link.port.postMessage(message, transfer);
  Atomics.add(link.signal, POSTED, 1);
  Atomics.notify(link.signal, POSTED);
}

/** The reader's side: counts a message taken, waking a thread that waits for room. */
export function countTaken(signal: Int32Array): void {
  Atomics.add(signal, TAKEN, 1);
  Atomics.notify(signal, TAKEN);
}

/** The reader's side: the thread's next message, waited for; undefined when none came in `stallMs`. */
export function nextPost({ port, signal }: ThreadLink, stallMs: number): unknown {
  for (;;) {
    const posted = Atomics.load(signal, POSTED);
    const message = receiveMessageOnPort(port);
    if (message !== undefined) return message.message;
    if (!awaitPost(signal, posted, stallMs)) return undefined;
  }
}

/** The reader's side: waits for a post after the count `posted`; false when none came in `stallMs`. */
export function awaitPost(signal: Int32Array, posted: number, stallMs: number): boolean {
  return Atomics.wait(signal, POSTED, posted, stallMs) !== 'timed-out';
}
