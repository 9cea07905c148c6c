/** True for a file name in the JSONL tape form (`.jsonl`). */
export function isJsonlPath(path: string): boolean {
  return path.toLowerCase().endsWith('.jsonl');
}
