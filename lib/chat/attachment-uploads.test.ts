import { describe, expect, it } from "vitest";
import {
  type CreateAt,
  uploadFileName,
  uploadPathCandidate,
  uploadUnderFreeName,
} from "./attachment-uploads";

describe("upload names", () => {
  it("keeps ordinary names and makes awkward ones acceptable to the path rules", () => {
    expect(uploadFileName("report 2024.pdf")).toBe("report 2024.pdf");
    expect(uploadFileName("a/b\\c.txt")).toBe("a_b_c.txt");
    expect(uploadFileName("tab\there\n.txt")).toBe("tabhere.txt");
    expect(uploadFileName("100%2e%2F%5c%00 and 50% off.txt")).toBe("100_2e_2F_5c_00 and 50% off.txt");
    expect(uploadFileName("  ")).toBe("file");
    expect(uploadFileName("..")).toBe("file");
  });

  it("cuts long names to 255 characters, keeping the extension", () => {
    const name = uploadFileName(`${"x".repeat(300)}.tar.gz`);
    expect(name).toHaveLength(255);
    expect(name.endsWith("x.gz")).toBe(true);
    expect(
      uploadPathCandidate(`${"y".repeat(300)}.png`, 12)
        .split("/")
        .at(-1),
    ).toHaveLength(255);
  });

  it("numbers the candidates after the first, before the extension", () => {
    expect(uploadPathCandidate("photo.png", 1)).toBe("/uploads/photo.png");
    expect(uploadPathCandidate("photo.png", 2)).toBe("/uploads/photo (2).png");
    expect(uploadPathCandidate("README", 3)).toBe("/uploads/README (3)");
    expect(uploadPathCandidate(".env", 2)).toBe("/uploads/.env (2)");
  });
});

describe("uploadUnderFreeName", () => {
  it("moves on from taken names and answers the path it created", async () => {
    const taken = new Set(["/uploads/notes.txt", "/uploads/notes (2).txt"]);
    const tried: string[] = [];
    const createAt: CreateAt = async (path) => {
      tried.push(path);
      return taken.has(path) ? "taken" : "created";
    };
    expect(await uploadUnderFreeName("notes.txt", createAt)).toBe("/uploads/notes (3).txt");
    expect(tried).toEqual(["/uploads/notes.txt", "/uploads/notes (2).txt", "/uploads/notes (3).txt"]);
  });

  it("passes other failures on at once", async () => {
    let calls = 0;
    const createAt: CreateAt = async () => {
      calls += 1;
      throw new Error("The request body is larger than the limit of 10 MiB.");
    };
    await expect(uploadUnderFreeName("big.bin", createAt)).rejects.toThrow("larger than the limit");
    expect(calls).toBe(1);
  });

  it("gives up after 50 taken names", async () => {
    await expect(uploadUnderFreeName("a.txt", async () => "taken")).rejects.toThrow(/free name.*rename/);
  });
});
