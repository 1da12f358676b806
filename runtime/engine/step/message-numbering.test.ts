import { describe, expect, it } from "vitest";
import { MessageNumbering } from "./message-numbering";

describe("MessageNumbering", () => {
  it("knows nothing before a transaction locks a thread", () => {
    const numbering = new MessageNumbering();
    expect(numbering.lastSeqFor("t1")).toBeNull();
    expect(numbering.nextSeq()).toBeNull();
    expect(numbering.takeFlush()).toBeNull();
  });

  it("numbers after the locked thread's message_seq, and only for that thread", () => {
    const numbering = new MessageNumbering();
    numbering.begin("t1", 7);
    expect(numbering.lastSeqFor("t1")).toBe(7);
    expect(numbering.lastSeqFor("t2")).toBeNull();
    expect(numbering.nextSeq()).toBe(8);
  });

  it("owes the message_seq after inserts numbered here, settled once by the next thread update", () => {
    const numbering = new MessageNumbering();
    numbering.begin("t1", 7);
    numbering.inserted(9, true);
    expect(numbering.nextSeq()).toBe(10);
    expect(numbering.takeOwed("t2")).toBeNull();
    expect(numbering.takeOwed("t1")).toBe(9);
    expect(numbering.takeOwed("t1")).toBeNull();
    expect(numbering.takeFlush()).toBeNull();
  });

  it("owes nothing for inserts the database numbered, or for none stored", () => {
    const numbering = new MessageNumbering();
    numbering.begin("t1", 7);
    numbering.inserted(undefined, true);
    expect(numbering.takeOwed("t1")).toBeNull();
    numbering.inserted(8, false);
    expect(numbering.takeOwed("t1")).toBeNull();
    expect(numbering.lastSeqFor("t1")).toBe(8);
  });

  it("flushes what is owed on its own when no update takes it", () => {
    const numbering = new MessageNumbering();
    numbering.begin("t1", 3);
    numbering.inserted(5, true);
    expect(numbering.takeFlush()).toEqual({ threadId: "t1", messageSeq: 5 });
    expect(numbering.takeFlush()).toBeNull();
  });

  it("after an in-place change asks the database again, whatever is inserted next", () => {
    const numbering = new MessageNumbering();
    numbering.begin("t1", 3);
    numbering.renumbered();
    expect(numbering.lastSeqFor("t1")).toBeNull();
    expect(numbering.nextSeq()).toBeNull();
    numbering.inserted(12, false);
    expect(numbering.lastSeqFor("t1")).toBeNull();
  });

  it("forgets the thread and what was owed when the next transaction starts", () => {
    const numbering = new MessageNumbering();
    numbering.begin("t1", 3);
    numbering.inserted(4, true);
    numbering.reset();
    expect(numbering.takeFlush()).toBeNull();
    expect(numbering.lastSeqFor("t1")).toBeNull();
  });
});
