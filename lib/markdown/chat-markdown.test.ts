import { describe, expect, it } from "vitest";
import {
  codeLanguage,
  isPlainText,
  type MarkdownNode,
  plainParagraphs,
  remarkHardLineBreaks,
  remarkRawHtmlAsText,
  safeLinkUrl,
  shiftedHeadingLevel,
  splitStreamingBlocks,
} from "./chat-markdown";

describe("safeLinkUrl", () => {
  it("keeps absolute http, https and mailto URLs", () => {
    expect(safeLinkUrl("https://example.com/a?b=1#c")).toBe("https://example.com/a?b=1#c");
    expect(safeLinkUrl("http://example.com")).toBe("http://example.com");
    expect(safeLinkUrl("mailto:someone@example.com")).toBe("mailto:someone@example.com");
    expect(safeLinkUrl("  HTTPS://EXAMPLE.COM  ")).toBe("HTTPS://EXAMPLE.COM");
  });

  it("refuses script, data and other schemes, and relative URLs", () => {
    for (const url of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "java\tscript:alert(1)",
      " javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "ftp://example.com",
      "/api/threads/x",
      "#top",
      "example.com",
      "",
    ]) {
      expect(safeLinkUrl(url), url).toBeNull();
    }
  });
});

describe("isPlainText", () => {
  it("lets ordinary prose skip the parser", () => {
    expect(isPlainText("Echo: hello there")).toBe(true);
    expect(isPlainText("Draft: a rock, it's grey.\nSecond line (really); 3 items?")).toBe(true);
  });

  it("sends anything with markdown syntax to the parser", () => {
    for (const text of [
      "# Heading",
      "  ## indented heading",
      "> quote",
      "- item",
      "+ item",
      "* item",
      "1. first",
      "2) second",
      "Title\n===",
      "Title\n---",
      "    indented code",
      "\tindented code",
      "some *emphasis*",
      "some _emphasis_",
      "`code`",
      "~~gone~~",
      "[link](https://x.y)",
      "![image](https://x.y/a.png)",
      "<b>html</b>",
      "&amp;",
      "a | b",
      "escaped \\*",
      "see https://example.com",
      "see www.example.com",
      "write to a@b.co",
    ]) {
      expect(isPlainText(text), text).toBe(false);
    }
  });
});

describe("plainParagraphs", () => {
  it("splits at blank lines and keeps single newlines inside a paragraph", () => {
    expect(plainParagraphs("one\ntwo\n\n  \nthree\n\n")).toEqual(["one\ntwo", "three"]);
    expect(plainParagraphs("   ")).toEqual([]);
  });
});

describe("splitStreamingBlocks", () => {
  it("cuts at blank lines", () => {
    expect(splitStreamingBlocks("# Title\n\nA paragraph\nstill it\n\n- a\n- b")).toEqual([
      "# Title",
      "A paragraph\nstill it",
      "- a\n- b",
    ]);
  });

  it("never cuts inside a fenced code block, closed or still open", () => {
    expect(splitStreamingBlocks("```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nafter")).toEqual([
      "```ts\nconst a = 1;\n\nconst b = 2;\n```",
      "after",
    ]);
    expect(splitStreamingBlocks("intro\n\n~~~\nopen\n\nstill open")).toEqual([
      "intro",
      "~~~\nopen\n\nstill open",
    ]);
    // A shorter or different fence does not close it; a line with an info string does not either.
    expect(splitStreamingBlocks("````\n```\n\n~~~\n\n```js\n````\n\nout")).toEqual([
      "````\n```\n\n~~~\n\n```js\n````",
      "out",
    ]);
  });

  it("keeps indented continuations with the block before them", () => {
    expect(splitStreamingBlocks("- item\n\n  more of the item\n\nnext")).toEqual([
      "- item\n\n  more of the item",
      "next",
    ]);
  });

  it("drops empty blocks", () => {
    expect(splitStreamingBlocks("\n\n\na\n\n\n\nb\n\n")).toEqual(["a", "b"]);
    expect(splitStreamingBlocks("")).toEqual([]);
  });
});

describe("remark plugins", () => {
  const text = (value: string): MarkdownNode => ({ type: "text", value });

  it("turns raw HTML into text: inline stays inline, a block becomes a paragraph", () => {
    const tree: MarkdownNode = {
      type: "root",
      children: [
        { type: "paragraph", children: [text("a "), { type: "html", value: "<img onerror=x>" }] },
        { type: "html", value: "<script>\nalert(1)\n</script>" },
      ],
    };
    remarkRawHtmlAsText()(tree);
    expect(tree.children).toEqual([
      { type: "paragraph", children: [text("a "), text("<img onerror=x>")] },
      { type: "paragraph", children: [text("<script>\nalert(1)\n</script>")] },
    ]);
  });

  it("makes single newlines in text line breaks and leaves code alone", () => {
    const tree: MarkdownNode = {
      type: "root",
      children: [
        { type: "paragraph", children: [text("one\ntwo  \n three\n")] },
        { type: "code", value: "a\nb" },
      ],
    };
    remarkHardLineBreaks()(tree);
    expect(tree.children).toEqual([
      {
        type: "paragraph",
        children: [
          text("one"),
          { type: "break" },
          text("two"),
          { type: "break" },
          text("three"),
          { type: "break" },
        ],
      },
      { type: "code", value: "a\nb" },
    ]);
  });
});

describe("small helpers", () => {
  it("reads a code block's language from its class", () => {
    expect(codeLanguage("language-ts")).toBe("ts");
    expect(codeLanguage("hljs language-c++")).toBe("c++");
    expect(codeLanguage(undefined)).toBeNull();
    expect(codeLanguage("nolanguage")).toBeNull();
  });

  it("shifts heading levels down two, within h3–h6", () => {
    expect([1, 2, 3, 4, 5, 6].map(shiftedHeadingLevel)).toEqual([3, 4, 5, 6, 6, 6]);
  });
});
