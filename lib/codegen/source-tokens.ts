// Splits TypeScript source into the few token kinds the definition subset needs; anything else is a positioned error.

export interface SourcePosition {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units like editors count. */
  column: number;
}

export type Token =
  | { kind: "identifier"; value: string; position: SourcePosition }
  | { kind: "string"; value: string; position: SourcePosition }
  | { kind: "template"; value: string; position: SourcePosition }
  | { kind: "number"; value: number; position: SourcePosition }
  | { kind: "punctuator"; value: string; position: SourcePosition }
  | { kind: "end"; value: ""; position: SourcePosition };

/** A problem in the source text itself; the parser stops at the first one, because what follows cannot be trusted. */
export class SourceSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: SourcePosition,
  ) {
    super(message);
    this.name = "SourceSyntaxError";
  }
}

const IDENTIFIER_START = /[A-Za-z_$]/;
const IDENTIFIER_PART = /[A-Za-z0-9_$]/;
const NUMBER = /^(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/;
const SINGLE_ESCAPES: Record<string, string> = {
  n: "\n",
  r: "\r",
  t: "\t",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
};

export function tokenize(source: string): Token[] {
  return new Tokenizer(source).run();
}

class Tokenizer {
  private offset = 0;
  private line = 1;
  private lineStart = 0;
  private readonly tokens: Token[] = [];

  constructor(private readonly source: string) {}

  run(): Token[] {
    for (;;) {
      this.skipTrivia();
      const position = this.position();
      const char = this.source[this.offset];
      if (char === undefined) {
        this.tokens.push({ kind: "end", value: "", position });
        return this.tokens;
      }
      if (IDENTIFIER_START.test(char)) this.readIdentifier(position);
      else if (char === '"' || char === "'") this.readString(char, position);
      else if (char === "`") this.readTemplate(position);
      else if (/[0-9]/.test(char) || (char === "." && /[0-9]/.test(this.source[this.offset + 1] ?? "")))
        this.readNumber(position);
      else {
        // Characters outside the subset become tokens too, so the parser reports the first problem in reading order.
        this.offset++;
        this.tokens.push({ kind: "punctuator", value: char, position });
      }
    }
  }

  private position(): SourcePosition {
    return { line: this.line, column: this.offset - this.lineStart + 1 };
  }

  private newLineAt(offset: number): void {
    this.line++;
    this.lineStart = offset + 1;
  }

  private skipTrivia(): void {
    const source = this.source;
    while (this.offset < source.length) {
      const char = source[this.offset]!;
      if (char === "\n") {
        this.newLineAt(this.offset);
        this.offset++;
      } else if (/\s/.test(char)) {
        this.offset++;
      } else if (source.startsWith("//", this.offset)) {
        while (this.offset < source.length && source[this.offset] !== "\n") this.offset++;
      } else if (source.startsWith("/*", this.offset)) {
        const start = this.position();
        const end = source.indexOf("*/", this.offset + 2);
        if (end === -1) throw new SourceSyntaxError("This comment is never closed (missing */).", start);
        for (let index = this.offset; index < end; index++) if (source[index] === "\n") this.newLineAt(index);
        this.offset = end + 2;
      } else {
        return;
      }
    }
  }

  private readIdentifier(position: SourcePosition): void {
    const start = this.offset;
    while (IDENTIFIER_PART.test(this.source[this.offset] ?? "")) this.offset++;
    this.tokens.push({ kind: "identifier", value: this.source.slice(start, this.offset), position });
  }

  private readNumber(position: SourcePosition): void {
    const match = NUMBER.exec(this.source.slice(this.offset, this.offset + 400));
    const text = match?.[0] ?? "";
    this.offset += text.length;
    if (IDENTIFIER_PART.test(this.source[this.offset] ?? "")) {
      throw new SourceSyntaxError(
        "Only plain decimal numbers are supported (like 42, 0.5 or 1e-7).",
        position,
      );
    }
    this.tokens.push({ kind: "number", value: Number(text), position });
  }

  private readString(quote: string, position: SourcePosition): void {
    this.offset++;
    let value = "";
    for (;;) {
      const char = this.source[this.offset];
      if (char === undefined || char === "\n" || char === "\r") {
        throw new SourceSyntaxError(
          "This string is never closed (missing quote at the end of the line).",
          position,
        );
      }
      this.offset++;
      if (char === quote) break;
      value += char === "\\" ? this.readEscape() : char;
    }
    this.tokens.push({ kind: "string", value, position });
  }

  private readTemplate(position: SourcePosition): void {
    this.offset++;
    let value = "";
    for (;;) {
      const char = this.source[this.offset];
      if (char === undefined)
        throw new SourceSyntaxError("This template literal is never closed (missing `).", position);
      if (char === "$" && this.source[this.offset + 1] === "{") {
        throw new SourceSyntaxError(
          "Template literals with substitutions are not supported: definitions must be plain data.",
          this.position(),
        );
      }
      this.offset++;
      if (char === "`") break;
      if (char === "\\") value += this.readEscape();
      else if (char === "\r") {
        // Template literals normalise CR and CRLF line ends to LF.
        if (this.source[this.offset] === "\n") this.offset++;
        this.newLineAt(this.offset - 1);
        value += "\n";
      } else {
        if (char === "\n") this.newLineAt(this.offset - 1);
        value += char;
      }
    }
    this.tokens.push({ kind: "template", value, position });
  }

  /** Reads the escape after a backslash (already consumed) and returns what it stands for. */
  private readEscape(): string {
    const position = this.position();
    const char = this.source[this.offset];
    if (char === undefined)
      throw new SourceSyntaxError("The source ends inside an escape sequence.", position);
    this.offset++;
    if (char === "\r") {
      if (this.source[this.offset] === "\n") this.offset++;
      this.newLineAt(this.offset - 1);
      return "";
    }
    if (char === "\n" || char === "\u2028" || char === "\u2029") {
      if (char === "\n") this.newLineAt(this.offset - 1);
      return "";
    }
    if (char === "0" && /[0-9]/.test(this.source[this.offset] ?? "")) {
      throw new SourceSyntaxError("Octal escapes are not supported.", position);
    }
    const single = SINGLE_ESCAPES[char];
    if (single !== undefined) return single;
    if (char === "x") return String.fromCharCode(this.readHex(2, position));
    if (char === "u") {
      if (this.source[this.offset] === "{") {
        const end = this.source.indexOf("}", this.offset);
        const hex = end === -1 ? "" : this.source.slice(this.offset + 1, end);
        if (!/^[0-9a-fA-F]{1,6}$/.test(hex) || Number.parseInt(hex, 16) > 0x10ffff) {
          throw new SourceSyntaxError("Invalid \\u{…} escape.", position);
        }
        this.offset = end + 1;
        return String.fromCodePoint(Number.parseInt(hex, 16));
      }
      return String.fromCharCode(this.readHex(4, position));
    }
    if (/[1-9]/.test(char)) throw new SourceSyntaxError("Octal escapes are not supported.", position);
    return char;
  }

  private readHex(length: number, position: SourcePosition): number {
    const hex = this.source.slice(this.offset, this.offset + length);
    if (hex.length !== length || !/^[0-9a-fA-F]+$/.test(hex)) {
      throw new SourceSyntaxError(`Invalid escape: expected ${length} hexadecimal digits.`, position);
    }
    this.offset += length;
    return Number.parseInt(hex, 16);
  }
}
