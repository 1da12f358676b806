// A minimal ZIP writer and reader for project file maps, isomorphic (browser and server), no dependency.
// Writing stores entries uncompressed (definitions are small); reading also accepts deflated entries
// through the web-standard DecompressionStream, so zips made by other tools import too.

export type ProjectFiles = Record<string, string>;

/** The archive is not a zip we can read; the message says why. */
export class InvalidZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidZipError";
  }
}

/** Refuse archives that unpack to more than this: project definitions are a few hundred kilobytes at most. */
export const MAX_UNZIPPED_BYTES = 20 * 1024 * 1024;

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const UTF8_NAMES_FLAG = 0x0800;
const ENCRYPTED_FLAG = 0x0001;
/** 1980-01-01 00:00, the earliest DOS date: a fixed timestamp makes archives byte-for-byte reproducible. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let index = 0; index < 256; index++) {
    let value = index;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    table[index] = value >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Entries in the map's order, stored (no compression), with UTF-8 names. */
export function zipProjectFiles(files: ProjectFiles): Uint8Array {
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [path, text] of Object.entries(files)) {
    const name = encoder.encode(path);
    const data = encoder.encode(text);
    const crc = crc32(data);
    const local = new Uint8Array(30 + name.length + data.length);
    const localView = new DataView(local.buffer);
    localView.setUint32(0, LOCAL_HEADER, true);
    localView.setUint16(4, 20, true);
    localView.setUint16(6, UTF8_NAMES_FLAG, true);
    localView.setUint16(8, 0, true);
    localView.setUint16(10, DOS_TIME, true);
    localView.setUint16(12, DOS_DATE, true);
    localView.setUint32(14, crc, true);
    localView.setUint32(18, data.length, true);
    localView.setUint32(22, data.length, true);
    localView.setUint16(26, name.length, true);
    localView.setUint16(28, 0, true);
    local.set(name, 30);
    local.set(data, 30 + name.length);

    const central = new Uint8Array(46 + name.length);
    const centralView = new DataView(central.buffer);
    centralView.setUint32(0, CENTRAL_HEADER, true);
    centralView.setUint16(4, 20, true);
    centralView.setUint16(6, 20, true);
    centralView.setUint16(8, UTF8_NAMES_FLAG, true);
    centralView.setUint16(10, 0, true);
    centralView.setUint16(12, DOS_TIME, true);
    centralView.setUint16(14, DOS_DATE, true);
    centralView.setUint32(16, crc, true);
    centralView.setUint32(20, data.length, true);
    centralView.setUint32(24, data.length, true);
    centralView.setUint16(28, name.length, true);
    centralView.setUint32(42, offset, true);
    central.set(name, 46);

    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const centralSize = centrals.reduce((total, entry) => total + entry.length, 0);
  const end = new Uint8Array(22);
  const endView = new DataView(end.buffer);
  endView.setUint32(0, END_OF_CENTRAL_DIRECTORY, true);
  endView.setUint16(8, centrals.length, true);
  endView.setUint16(10, centrals.length, true);
  endView.setUint32(12, centralSize, true);
  endView.setUint32(16, offset, true);
  return concat([...locals, ...centrals, end]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const result = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}

/** The text files of an archive (folders are skipped). Throws InvalidZipError for anything unreadable. */
export async function unzipProjectFiles(bytes: Uint8Array): Promise<ProjectFiles> {
  try {
    return await readArchive(bytes);
  } catch (error) {
    // Offsets that point outside the archive surface as RangeErrors from DataView.
    if (error instanceof RangeError)
      throw new InvalidZipError("The zip is damaged (an entry points outside the file).");
    throw error;
  }
}

async function readArchive(bytes: Uint8Array): Promise<ProjectFiles> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfCentralDirectory(view);
  const count = view.getUint16(end + 10, true);
  let cursor = view.getUint32(end + 16, true);
  const files: ProjectFiles = {};
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let total = 0;
  for (let entry = 0; entry < count; entry++) {
    if (cursor + 46 > bytes.length || view.getUint32(cursor, true) !== CENTRAL_HEADER) {
      throw new InvalidZipError("The zip's central directory is damaged.");
    }
    const flags = view.getUint16(cursor + 8, true);
    const method = view.getUint16(cursor + 10, true);
    const crc = view.getUint32(cursor + 16, true);
    const compressedSize = view.getUint32(cursor + 20, true);
    const size = view.getUint32(cursor + 24, true);
    const nameLength = view.getUint16(cursor + 28, true);
    const extraLength = view.getUint16(cursor + 30, true);
    const commentLength = view.getUint16(cursor + 32, true);
    const localOffset = view.getUint32(cursor + 42, true);
    const name = decoder.decode(bytes.subarray(cursor + 46, cursor + 46 + nameLength));
    cursor += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/")) continue;
    if (flags & ENCRYPTED_FLAG)
      throw new InvalidZipError(`"${name}" is encrypted; export the zip without a password.`);
    total += size;
    if (size === 0xffffffff || total > MAX_UNZIPPED_BYTES) {
      throw new InvalidZipError(`The zip unpacks to more than ${MAX_UNZIPPED_BYTES} bytes.`);
    }
    const data = await entryData(bytes, view, { name, method, localOffset, compressedSize });
    if (data.length !== size || crc32(data) !== crc) {
      throw new InvalidZipError(`"${name}" is damaged (its checksum does not match).`);
    }
    files[name] = decoder.decode(data);
  }
  return files;
}

function findEndOfCentralDirectory(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let offset = view.byteLength - 22; offset >= lowest; offset--) {
    if (view.getUint32(offset, true) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  throw new InvalidZipError("This is not a zip archive (no end of central directory record).");
}

async function entryData(
  bytes: Uint8Array,
  view: DataView,
  entry: { name: string; method: number; localOffset: number; compressedSize: number },
): Promise<Uint8Array> {
  const { name, method, localOffset, compressedSize } = entry;
  if (localOffset + 30 > bytes.length || view.getUint32(localOffset, true) !== LOCAL_HEADER) {
    throw new InvalidZipError(`"${name}" is damaged (no local header).`);
  }
  const start =
    localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
  if (start + compressedSize > bytes.length) throw new InvalidZipError(`"${name}" is cut short.`);
  const stored = bytes.subarray(start, start + compressedSize);
  if (method === 0) return stored;
  if (method === 8) return inflate(stored, name);
  throw new InvalidZipError(
    `"${name}" uses compression method ${method}; only stored and deflate are supported.`,
  );
}

async function inflate(data: Uint8Array, name: string): Promise<Uint8Array> {
  try {
    const stream = new Blob([data as Uint8Array<ArrayBuffer>])
      .stream()
      .pipeThrough(new DecompressionStream("deflate-raw"));
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      // Checked while inflating, so a small bomb cannot fill memory before the size check.
      if (total > MAX_UNZIPPED_BYTES) {
        await reader.cancel();
        throw new InvalidZipError(`The zip unpacks to more than ${MAX_UNZIPPED_BYTES} bytes.`);
      }
      chunks.push(value);
    }
    return concat(chunks);
  } catch (error) {
    if (error instanceof InvalidZipError) throw error;
    throw new InvalidZipError(`"${name}" could not be decompressed (${(error as Error).message}).`);
  }
}
