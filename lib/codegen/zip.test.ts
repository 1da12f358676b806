import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32, InvalidZipError, unzipProjectFiles, zipProjectFiles } from "./zip";

/** A one-entry zip with a deflated entry, laid out by hand like other zip tools write it. */
function deflatedZip(name: string, text: string): Uint8Array {
  const nameBytes = new TextEncoder().encode(name);
  const data = new TextEncoder().encode(text);
  const compressed = deflateRawSync(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const centralOffset = local.length + nameBytes.length + compressed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return new Uint8Array(Buffer.concat([local, nameBytes, compressed, central, nameBytes, end]));
}

describe("zip", () => {
  it("computes the standard CRC-32", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });

  it("round-trips UTF-8 names and contents, byte-for-byte the same for the same files", async () => {
    const files = {
      "agents/prompts/café.ts": "export default 'é🎨';\n",
      "package.json": "{}\n",
      "empty.txt": "",
    };
    const zip = zipProjectFiles(files);
    expect(zipProjectFiles(files)).toEqual(zip);
    expect(await unzipProjectFiles(zip)).toEqual(files);
  });

  it("reads deflated entries written by other tools", async () => {
    const text = "export default defineTool({});\n".repeat(50);
    expect(await unzipProjectFiles(deflatedZip("agents/tools/t.ts", text))).toEqual({
      "agents/tools/t.ts": text,
    });
  });

  it("refuses what is not a zip, a truncated zip and an entry whose checksum does not match", async () => {
    await expect(unzipProjectFiles(new TextEncoder().encode("not a zip at all"))).rejects.toThrow(
      InvalidZipError,
    );
    const zip = zipProjectFiles({ "a.ts": "hello" });
    await expect(unzipProjectFiles(zip.slice(0, zip.length - 30))).rejects.toThrow(InvalidZipError);
    const corrupted = zip.slice();
    const firstDataByte = 30 + "a.ts".length;
    corrupted[firstDataByte] = corrupted[firstDataByte]! ^ 0xff;
    await expect(unzipProjectFiles(corrupted)).rejects.toThrow(/checksum/);
  });
});
