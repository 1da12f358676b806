// Rendered to static HTML with React's server renderer: what a browser would receive for a message.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChatMarkdown, StreamingMarkdown } from "./ChatMarkdown";

const render = (text: string) => renderToStaticMarkup(createElement(ChatMarkdown, { text }));
const renderStreaming = (text: string) => renderToStaticMarkup(createElement(StreamingMarkdown, { text }));

describe("ChatMarkdown", () => {
  it("renders headings (shifted two levels), emphasis, lists, quotes and tables", () => {
    const html = render(
      [
        "# Plan",
        "## Steps",
        "Some *emphasis*, **strong** and ~~struck~~ text.",
        "- one\n- two",
        "1. first\n2. second",
        "> quoted",
        "| a | b |\n|---|--:|\n| 1 | 2 |",
        "- [x] done",
      ].join("\n\n"),
    );
    expect(html).toContain('<h3 class="chat-h1">Plan</h3>');
    expect(html).toContain('<h4 class="chat-h2">Steps</h4>');
    expect(html).toContain("<em>emphasis</em>");
    expect(html).toContain("<strong>strong</strong>");
    expect(html).toContain("<del>struck</del>");
    expect(html).toMatch(/<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
    expect(html).toMatch(/<ol>\s*<li>first<\/li>\s*<li>second<\/li>\s*<\/ol>/);
    expect(html).toMatch(/<blockquote>\s*<p>quoted<\/p>\s*<\/blockquote>/);
    expect(html).toContain('<div class="chat-table"><table><thead><tr><th>a</th>');
    expect(html).toContain('<td style="text-align:right">2</td>');
    expect(html).toContain('<input type="checkbox" disabled="" checked=""/>');
  });

  it("renders fenced code with its language and a copy button, and inline code", () => {
    const html = render("Run `npm test`:\n\n```ts\nconst a = 1 < 2;\n```");
    expect(html).toContain("<code>npm test</code>");
    expect(html).toContain('<div class="chat-code-bar"><span>ts</span><button type="button"');
    expect(html).toContain('<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>');
  });

  it("opens http, https and mailto links in a new tab, and leaves other links as text", () => {
    const html = render(
      "[site](https://example.com) [mail](mailto:a@example.com) [bad](javascript:alert(1)) [data](data:text/html,x) [rel](/api/x) www.example.org",
    );
    expect(html).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>',
    );
    expect(html).toContain(
      '<a href="mailto:a@example.com" target="_blank" rel="noopener noreferrer">mail</a>',
    );
    expect(html).toContain(
      '<a href="http://www.example.org" target="_blank" rel="noopener noreferrer">www.example.org</a>',
    );
    expect(html).toContain("<span>bad</span>");
    expect(html).toContain("<span>data</span>");
    expect(html).toContain("<span>rel</span>");
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("data:text");
  });

  it("shows raw HTML as text, never as elements", () => {
    const html = render(
      'Hi <script>alert("x")</script> and <img src=x onerror="alert(1)"> done\n\n<div onclick="evil()">\nblock\n</div>',
    );
    expect(html).not.toMatch(/<script|<img|<div onclick/);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("<p>&lt;div onclick=&quot;evil()&quot;&gt;<br/>\nblock<br/>\n&lt;/div&gt;</p>");
  });

  it("shows an image as a link to it instead of loading it", () => {
    const html = render("![chart](https://example.com/chart.png) ![x](javascript:alert(1))");
    expect(html).toContain(
      '<a href="https://example.com/chart.png" target="_blank" rel="noopener noreferrer">Image: chart</a>',
    );
    expect(html).not.toContain("<img");
    expect(html).not.toContain("javascript:");
  });

  it("keeps single newlines as line breaks, in markdown and in plain text alike", () => {
    expect(render("**a**\nb")).toContain("<p><strong>a</strong><br/>\nb</p>");
    expect(render("plain one\nplain two\n\nnext")).toBe(
      '<div class="chat-markdown"><p class="whitespace-pre-wrap">plain one\nplain two</p><p class="whitespace-pre-wrap">next</p></div>',
    );
  });

  it("renders the same element again for the same text (cached)", () => {
    const text = `cached *${Math.random()}*`;
    const first = ChatMarkdown.type({ text });
    const second = ChatMarkdown.type({ text });
    expect(second.props.children).toBe(first.props.children);
  });
});

describe("StreamingMarkdown", () => {
  it("renders a growing reply block by block, an open code fence included", () => {
    const html = renderStreaming("# Title\n\nSome **bold**\n\n```js\nlet a;\n\nlet b;");
    expect(html).toContain('<h3 class="chat-h1">Title</h3>');
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain('<pre><code class="language-js">let a;\n\nlet b;\n</code></pre>');
  });
});
