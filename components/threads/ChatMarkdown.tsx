"use client";
// Message text as markdown (GFM: tables, task lists, strikethrough, bare links), safely: raw HTML
// shows as text, links open in a new tab and only for http, https and mailto, images become links
// (a message never loads a remote picture). Text without any markdown syntax skips the parser, so
// a long transcript of plain messages costs what plain paragraphs cost; parsed text is cached.
import { type ComponentProps, memo, type ReactElement, type ReactNode, useState } from "react";
import Markdown, { type Components, type ExtraProps } from "react-markdown";
import remarkGfm from "remark-gfm";
import {
  codeLanguage,
  isPlainText,
  plainParagraphs,
  remarkHardLineBreaks,
  remarkRawHtmlAsText,
  safeLinkUrl,
  shiftedHeadingLevel,
  splitStreamingBlocks,
} from "@/lib/markdown/chat-markdown";
import { TextCache } from "@/lib/markdown/text-cache";

const REMARK_PLUGINS = [remarkGfm, remarkRawHtmlAsText, remarkHardLineBreaks];

function urlTransform(url: string): string | null {
  return safeLinkUrl(url);
}

type TextNode = { type: string; value?: string; children?: TextNode[] };

/** The text under a syntax-tree node (what a code block's Copy button copies). */
function textOf(node: TextNode | undefined): string {
  if (!node) return "";
  if (typeof node.value === "string") return node.value;
  return (node.children ?? []).map(textOf).join("");
}

function CodeBlock({ children, node }: ComponentProps<"pre"> & ExtraProps) {
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const code = node?.children.find((child) => child.type === "element" && child.tagName === "code");
  const className = code?.type === "element" ? code.properties.className : undefined;
  const language = codeLanguage(Array.isArray(className) ? className.join(" ") : undefined);
  async function copy() {
    try {
      await navigator.clipboard.writeText(textOf(code as TextNode | undefined).replace(/\n$/, ""));
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
    setTimeout(() => setCopied(null), 1500);
  }
  return (
    <div className="chat-code">
      <div className="chat-code-bar">
        <span>{language ?? "code"}</span>
        <button type="button" onClick={() => void copy()} className="hover:text-text">
          {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
        </button>
      </div>
      <pre>{children}</pre>
    </div>
  );
}

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** `#` renders as h3 (see shiftedHeadingLevel); the chat-hN class keeps the size the writer meant. */
function Heading({ node, children }: ComponentProps<"h1"> & ExtraProps) {
  const level = Number(node?.tagName.slice(1)) || 1;
  const Tag = `h${shiftedHeadingLevel(level)}` as const;
  return <Tag className={`chat-h${level}`}>{children}</Tag>;
}

const COMPONENTS: Components = {
  // urlTransform has already removed unsafe hrefs: without one, the link text stays plain text.
  a: ({ href, children }) =>
    href ? <ExternalLink href={href}>{children}</ExternalLink> : <span>{children}</span>,
  img: ({ src, alt }) =>
    typeof src === "string" && src ? (
      <ExternalLink href={src}>{`Image: ${alt || src}`}</ExternalLink>
    ) : (
      <span>{alt}</span>
    ),
  h1: Heading,
  h2: Heading,
  h3: Heading,
  h4: Heading,
  h5: Heading,
  h6: Heading,
  pre: CodeBlock,
  table: ({ children }) => (
    <div className="chat-table">
      <table>{children}</table>
    </div>
  ),
};

/**
 * Rendered markdown by text, shared by every row: switching tabs or threads and back reuses it
 * instead of parsing again (the parser costs about 5 ms per kilobyte). React elements are
 * immutable descriptions, so one can be mounted any number of times.
 */
const rendered = new TextCache<ReactElement>(400, 1_000_000);

function renderMarkdown(text: string): ReactElement {
  if (isPlainText(text)) {
    return (
      <>
        {plainParagraphs(text).map((paragraph, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one immutable text.
          <p key={index} className="whitespace-pre-wrap">
            {paragraph}
          </p>
        ))}
      </>
    );
  }
  return (
    <Markdown remarkPlugins={REMARK_PLUGINS} components={COMPONENTS} urlTransform={urlTransform}>
      {text}
    </Markdown>
  );
}

/** A message's text, parsed whole (reference links and footnotes resolve across the message). */
export const ChatMarkdown = memo(function ChatMarkdown({ text }: { text: string }) {
  return <div className="chat-markdown">{rendered.getOrCreate(text, renderMarkdown)}</div>;
});

/**
 * Text still streaming in, cut into blocks at blank lines: the finished blocks are memoised, so a
 * frame that appends a few characters parses only the last block.
 */
export const StreamingMarkdown = memo(function StreamingMarkdown({ text }: { text: string }) {
  return (
    <div className="chat-markdown">
      {splitStreamingBlocks(text).map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks only grow at the end, so an index keeps its block.
        <StreamingBlock key={index} text={block} />
      ))}
    </div>
  );
});

const StreamingBlock = memo(function StreamingBlock({ text }: { text: string }) {
  return renderMarkdown(text);
});
