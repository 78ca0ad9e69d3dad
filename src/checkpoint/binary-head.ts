/** The head of the binary state images (snapshot, listing): a magic line (name and version), then a line of JSON meta. Pure: any backend stores the bytes. */

/** The first two lines of a binary image: its `magic` line, then its meta as one line of JSON. */
export function headOf(magic: string, meta: unknown): Buffer {
  return Buffer.from(`${magic}${JSON.stringify(meta)}\n`, 'utf8');
}

/** The meta of an image that starts with `magic`, and where the bytes after its head start; undefined for anything else or a torn head. */
export function readHead(data: Buffer, magic: string): { meta: object; end: number } | undefined {
  if (data.subarray(0, magic.length).toString('utf8') !== magic) return undefined;
  const newline = data.indexOf(0x0a, magic.length);
  if (newline === -1) return undefined;
  let meta: unknown;
  try {
    meta = JSON.parse(data.toString('utf8', magic.length, newline));
  } catch {
    return undefined;
  }
  return typeof meta === 'object' && meta !== null ? { meta, end: newline + 1 } : undefined;
}
