/**
 * A queue worker's thread: runs the chunks it is sent, one at a time, keeping the last tape it
 * read and what each kind prepared from it. Each thread reads and indexes the tape itself, at
 * the path the worker has checked: with few threads that costs less than one read, a packing
 * and an unpacking in every thread (about 2 s against 4.7 s for a 100k-swap tape). This thread is
 * the host of its walks of the tape: it collects the young generation between them
 * (`collectYoungGeneration`). Started by the worker's thread pool from the compiled `dist/` file.
 */
import { parentPort } from 'node:worker_threads';
import type { IndexedTape } from '../engine/tape-index.js';
import { readTapeFile } from '../io/read-tape.js';
import { CopysimError } from '../model/errors.js';
import { collectYoungGeneration } from '../threads/young-collection.js';
import { JOB_KINDS, runItems } from './job-kinds.js';
import type { ThreadReply, ThreadTask } from './thread-pool.js';

let tape: { key: string; tape: IndexedTape; contexts: Map<string, unknown> } | null = null;

function run(task: ThreadTask): ThreadReply {
  try {
    const kind = JOB_KINDS.get(task.kind);
    if (kind === undefined) throw new Error(`unknown job kind "${task.kind}"`);
    if (tape?.key !== task.tapeKey) {
      tape = null; // the last tape's memory goes before the next is read
      tape = { key: task.tapeKey, tape: readTapeFile(task.tapePath, task.tapeHeader), contexts: new Map() };
    }
    const settingsKey = `${task.kind} ${JSON.stringify(task.settings)}`;
    let context = tape.contexts.get(settingsKey);
    if (context === undefined) {
      context = kind.prepare(tape.tape, task.settings);
      tape.contexts.set(settingsKey, context);
    }
    return { results: runItems(kind, context, task.items, collectYoungGeneration) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e), input: e instanceof CopysimError };
  }
}

if (parentPort !== null) {
  const port = parentPort;
  port.on('message', (task: ThreadTask) => port.postMessage(run(task)));
}
