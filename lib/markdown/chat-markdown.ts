// How chat text is read as markdown (components/threads/ChatMarkdown.tsx renders it): which links
// may be followed, raw HTML shown as the text it is, single newlines kept as line breaks, and a
// cheap test that lets plain text skip the parser. Pure, so the rules are unit-tested on their own.

/** Only these schemes become links; anything else (javascript:, data:, relative paths) stays text. */
const LINK_PROTOCOLS: ReadonlySet<string> = new Set(["http:", "https:", "mailto:"]);

/** The URL itself when it is an absolute http, https or mailto URL, else null (no link is made). */
export function safeLinkUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  return LINK_PROTOCOLS.has(parsed.protocol) ? url.trim() : null;
}

/**
 * Anything that could make markdown differ from the same text shown as paragraphs: inline syntax
 * (`\ * _ ~ [ ] ! < & |` and backticks), bare URLs and e-mail addresses (GFM links them), and block
 * starts at the beginning of a line (headings, quotes, list markers, setext underlines, indented code).
 */
const MARKDOWN_SYNTAX = /[\\`*_~[\]!<&|@]|:\/\/|www\.|^[ \t]*(?:[#>+\-=]|\d{1,9}[.)])|^(?: {4}|\t)/m;

/** True when the text has no markdown syntax at all, so it can be shown as plain paragraphs. */
export function isPlainText(text: string): boolean {
  return !MARKDOWN_SYNTAX.test(text);
}

/** Paragraphs of plain text, split at blank lines as markdown would (single newlines stay inside). */
export function plainParagraphs(text: string): string[] {
  return text
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Streaming text cut into blocks at blank lines, so a reply that grows by a few characters a frame
 * re-parses only its last block: blank lines inside a fenced code block (closed or still open) do not
 * cut, nor does a blank line followed by an indented line (a list item's next paragraph, indented
 * code). The blocks render almost as the whole text would; the persisted message is rendered whole.
 */
export function splitStreamingBlocks(text: string): string[] {
  const lines = text.split("\n");
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const [index, line] of lines.entries()) {
    const marker = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (marker) fence = marker;
    } else if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
      fence = null;
    }
    const blank = line.trim() === "";
    const next = lines[index + 1];
    const continues = next !== undefined && /^(?: {2,}|\t)\S/.test(next);
    if (blank && fence === null && !continues) {
      if (current.some((entry) => entry.trim() !== "")) blocks.push(current.join("\n"));
      current = [];
      continue;
    }
    current.push(line);
  }
  if (current.some((entry) => entry.trim() !== "")) blocks.push(current.join("\n"));
  return blocks;
}

/** The slice of mdast (the markdown syntax tree) these plugins read and write. */
export interface MarkdownNode {
  type: string;
  value?: string;
  children?: MarkdownNode[];
}

/** Nodes whose children are inline content: text put there stays inline. */
const PHRASING_PARENTS: ReadonlySet<string> = new Set([
  "paragraph",
  "heading",
  "tableCell",
  "emphasis",
  "strong",
  "delete",
  "link",
  "linkReference",
  "footnoteReference",
]);

function mapChildren(
  node: MarkdownNode,
  visit: (child: MarkdownNode, parent: MarkdownNode) => MarkdownNode[],
) {
  if (!node.children) return;
  node.children = node.children.flatMap((child) => {
    mapChildren(child, visit);
    return visit(child, node);
  });
}

/**
 * remark plugin: raw HTML in a message (`<script>`, `<img onerror=…>`) is shown as the text the
 * model or user wrote, never interpreted. Inline HTML becomes text; an HTML block becomes a
 * paragraph of its text, so its line breaks survive.
 */
export function remarkRawHtmlAsText() {
  return (tree: MarkdownNode) => {
    mapChildren(tree, (node, parent) => {
      if (node.type !== "html") return [node];
      const text: MarkdownNode = { type: "text", value: node.value ?? "" };
      return PHRASING_PARENTS.has(parent.type) ? [text] : [{ type: "paragraph", children: [text] }];
    });
  };
}

/**
 * remark plugin: a single newline in a paragraph is a line break, as people expect in a chat (and
 * as GitHub comments do); a blank line still starts a new paragraph. Code is left alone.
 */
export function remarkHardLineBreaks() {
  return (tree: MarkdownNode) => {
    mapChildren(tree, (node) => {
      if (node.type !== "text" || !node.value?.includes("\n")) return [node];
      const lines = node.value.split(/[ \t]*\r?\n[ \t]*/);
      return lines.flatMap((line, index): MarkdownNode[] => {
        const parts: MarkdownNode[] = index > 0 ? [{ type: "break" }] : [];
        return line === "" ? parts : [...parts, { type: "text", value: line }];
      });
    });
  };
}

/** `language-ts` → `ts`: the language a fenced code block names, if any. */
export function codeLanguage(className: string | undefined): string | null {
  const match = /(?:^|\s)language-([\w#+.-]+)/.exec(className ?? "");
  return match?.[1] ?? null;
}

/** Heading levels shift down two (`#` → h3) so a message never outranks the page's own headings. */
export function shiftedHeadingLevel(level: number): 3 | 4 | 5 | 6 {
  return Math.min(6, Math.max(3, level + 2)) as 3 | 4 | 5 | 6;
}
