/** A copy of `array` with room for index `index` at least (twice as long, or more if needed). */
export function grown<T extends Float64Array | Int32Array | Uint8Array>(array: T, index: number): T {
  const copy = new (array.constructor as new (length: number) => T)(Math.max(2 * array.length, index + 1));
  copy.set(array);
  return copy;
}
