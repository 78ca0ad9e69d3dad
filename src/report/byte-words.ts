/**
 * Fixed bytes written 4 at a time: a text's bytes kept as little-endian 32-bit words and written
 * through a DataView, a few calls per text instead of one store per byte. The last word's spare bytes
 * land past the text's end, where the next write goes (the writer keeps 3 bytes of room for them).
 */

/** A text's bytes as words. */
export interface ByteWords {
  readonly words: Uint32Array;
  /** The text's bytes (the words hold up to 3 more). */
  readonly length: number;
}

/** The words of `bytes`, the last one padded with zeros. */
export function byteWords(bytes: Uint8Array): ByteWords {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  const words = new Uint32Array(padded.length / 4);
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(i * 4, true);
  return { words, length: bytes.length };
}

/** Writes `text` at `pos` (3 bytes past its end may be overwritten: `view` must have them); returns the position after the text. */
export function putWords(view: DataView, pos: number, text: ByteWords): number {
  const { words } = text;
  for (let i = 0; i < words.length; i++) view.setUint32(pos + i * 4, words[i] ?? 0, true);
  return pos + text.length;
}

/** Copies `from`..`to` of `source` (its view `sourceView`) to `pos` of `view`, 4 bytes at a time; returns the position after them. */
export function copyWords(sourceView: DataView, source: Uint8Array, from: number, to: number, view: DataView, pos: number): number {
  let i = from;
  let p = pos;
  for (; i + 4 <= to; i += 4, p += 4) view.setUint32(p, sourceView.getUint32(i, true), true);
  for (; i < to; i++, p++) view.setUint8(p, source[i] ?? 0);
  return p;
}
