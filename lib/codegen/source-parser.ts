// A recursive-descent parser for the TypeScript subset definitions are written in: imports, const
// declarations, `export default`, literals, identifiers, member access and calls. It builds a syntax
// tree and never runs anything; what the tree means is decided by read-definitions.ts.
import { type SourcePosition, SourceSyntaxError, type Token, tokenize } from "./source-tokens";

export type Expression =
  | { kind: "string"; value: string; position: SourcePosition }
  | { kind: "number"; value: number; position: SourcePosition }
  | { kind: "boolean"; value: boolean; position: SourcePosition }
  | { kind: "null"; position: SourcePosition }
  | { kind: "identifier"; name: string; position: SourcePosition }
  | { kind: "object"; properties: ObjectProperty[]; position: SourcePosition }
  | { kind: "array"; elements: Expression[]; position: SourcePosition }
  | {
      kind: "member";
      object: Expression;
      property: string;
      position: SourcePosition;
      /** Where the name after the dot is, for messages about that call. */
      propertyPosition: SourcePosition;
    }
  | { kind: "call"; callee: Expression; args: Expression[]; position: SourcePosition };

export interface ObjectProperty {
  key: string;
  position: SourcePosition;
  value: Expression;
}

export interface ImportedName {
  imported: string;
  local: string;
  position: SourcePosition;
}

export type Statement =
  | {
      kind: "import";
      defaultName?: string;
      names: ImportedName[];
      source: string;
      position: SourcePosition;
    }
  | { kind: "const"; exported: boolean; name: string; value: Expression; position: SourcePosition }
  | { kind: "export-default"; value: Expression; position: SourcePosition };

export interface SourceModule {
  statements: Statement[];
}

/** Throws SourceSyntaxError at the first token outside the subset. */
export function parseSourceModule(source: string): SourceModule {
  return new Parser(tokenize(source)).parseModule();
}

const SUBSET_HINT =
  "Definitions may only use imports, `const` declarations, `export default`, object/array/string/number/boolean/null literals, define* calls and z schemas.";

class Parser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  private get current(): Token {
    return this.tokens[this.index]!;
  }

  private advance(): Token {
    const token = this.current;
    if (token.kind !== "end") this.index++;
    return token;
  }

  private isPunctuator(value: string): boolean {
    return this.current.kind === "punctuator" && this.current.value === value;
  }

  private isKeyword(value: string): boolean {
    return this.current.kind === "identifier" && this.current.value === value;
  }

  private expectPunctuator(value: string, context: string): void {
    if (!this.isPunctuator(value)) throw this.unexpected(`Expected "${value}" ${context}.`);
    this.advance();
  }

  private expectKeyword(value: string, context: string): void {
    if (!this.isKeyword(value)) throw this.unexpected(`Expected "${value}" ${context}.`);
    this.advance();
  }

  private expectIdentifier(context: string): { value: string; position: SourcePosition } {
    const token = this.current;
    if (token.kind !== "identifier") throw this.unexpected(`Expected a name ${context}.`);
    this.advance();
    return { value: token.value, position: token.position };
  }

  private unexpected(message: string): SourceSyntaxError {
    const token = this.current;
    const found = token.kind === "end" ? "the end of the file" : describeToken(token);
    return new SourceSyntaxError(`${message} Found ${found}.`, token.position);
  }

  private skipSemicolons(): void {
    while (this.isPunctuator(";")) this.advance();
  }

  parseModule(): SourceModule {
    const statements: Statement[] = [];
    this.skipSemicolons();
    while (this.current.kind !== "end") {
      statements.push(this.parseStatement());
      this.skipSemicolons();
    }
    return { statements };
  }

  private parseStatement(): Statement {
    const position = this.current.position;
    if (this.isKeyword("import")) return this.parseImport();
    if (this.isKeyword("const")) return this.parseConst(false, position);
    if (this.isKeyword("export")) {
      this.advance();
      if (this.isKeyword("default")) {
        this.advance();
        return { kind: "export-default", value: this.parseExpression(), position };
      }
      if (this.isKeyword("const")) return this.parseConst(true, position);
      throw this.unexpected('Expected "default" or "const" after "export".');
    }
    throw this.unexpected(`Unsupported statement. ${SUBSET_HINT}`);
  }

  private parseImport(): Statement {
    const position = this.current.position;
    this.advance();
    let defaultName: string | undefined;
    const names: ImportedName[] = [];
    if (this.current.kind === "identifier" && !this.isKeyword("from")) {
      defaultName = this.expectIdentifier("for the default import").value;
      if (this.isPunctuator(",")) this.advance();
    }
    if (this.isPunctuator("{")) {
      this.advance();
      while (!this.isPunctuator("}")) {
        const imported = this.expectIdentifier("in the import list");
        let local = imported.value;
        if (this.isKeyword("as")) {
          this.advance();
          local = this.expectIdentifier('after "as"').value;
        }
        names.push({ imported: imported.value, local, position: imported.position });
        if (!this.isPunctuator(",")) break;
        this.advance();
      }
      this.expectPunctuator("}", "to close the import list");
    }
    if (defaultName === undefined && names.length === 0) {
      throw this.unexpected("Expected a default import or an import list.");
    }
    this.expectKeyword("from", "after the imported names");
    const source = this.current;
    if (source.kind !== "string") throw this.unexpected("Expected the module name as a string.");
    this.advance();
    return { kind: "import", defaultName, names, source: source.value, position };
  }

  private parseConst(exported: boolean, position: SourcePosition): Statement {
    this.expectKeyword("const", "");
    const name = this.expectIdentifier('after "const"').value;
    this.expectPunctuator("=", `after "const ${name}"`);
    return { kind: "const", exported, name, value: this.parseExpression(), position };
  }

  private parseExpression(): Expression {
    let expression = this.parsePrimary();
    for (;;) {
      if (this.isPunctuator(".")) {
        this.advance();
        const property = this.expectIdentifier('after "."');
        expression = {
          kind: "member",
          object: expression,
          property: property.value,
          position: expression.position,
          propertyPosition: property.position,
        };
      } else if (this.isPunctuator("(")) {
        this.advance();
        const args = this.parseList(")", "argument");
        expression = { kind: "call", callee: expression, args, position: expression.position };
      } else {
        return expression;
      }
    }
  }

  private parsePrimary(): Expression {
    const token = this.current;
    const position = token.position;
    switch (token.kind) {
      case "string":
      case "template":
        this.advance();
        return { kind: "string", value: token.value, position };
      case "number":
        this.advance();
        return { kind: "number", value: token.value, position };
      case "identifier":
        this.advance();
        if (token.value === "true" || token.value === "false") {
          return { kind: "boolean", value: token.value === "true", position };
        }
        if (token.value === "null") return { kind: "null", position };
        return { kind: "identifier", name: token.value, position };
      case "punctuator":
        if (token.value === "-") {
          this.advance();
          const number = this.current;
          if (number.kind !== "number") throw this.unexpected('Expected a number after "-".');
          this.advance();
          return { kind: "number", value: -number.value, position };
        }
        if (token.value === "{") return this.parseObject();
        if (token.value === "[") {
          this.advance();
          return { kind: "array", elements: this.parseList("]", "array element"), position };
        }
        break;
      case "end":
        break;
    }
    throw this.unexpected(`Expected a value. ${SUBSET_HINT}`);
  }

  /** Comma-separated expressions up to `close`, trailing comma allowed; no holes, no spread. */
  private parseList(close: string, what: string): Expression[] {
    const items: Expression[] = [];
    while (!this.isPunctuator(close)) {
      items.push(this.parseExpression());
      if (!this.isPunctuator(",")) break;
      this.advance();
    }
    this.expectPunctuator(close, `after the last ${what}`);
    return items;
  }

  private parseObject(): Expression {
    const position = this.current.position;
    this.advance();
    const properties: ObjectProperty[] = [];
    while (!this.isPunctuator("}")) {
      const key = this.current;
      if (key.kind !== "identifier" && key.kind !== "string") {
        throw this.unexpected("Expected a property name (a plain name or a quoted string).");
      }
      this.advance();
      this.expectPunctuator(":", `after the property name ${JSON.stringify(key.value)}`);
      properties.push({ key: String(key.value), position: key.position, value: this.parseExpression() });
      if (!this.isPunctuator(",")) break;
      this.advance();
    }
    this.expectPunctuator("}", "to close the object");
    return { kind: "object", properties, position };
  }
}

function describeToken(token: Token): string {
  switch (token.kind) {
    case "identifier":
      return `"${token.value}"`;
    case "string":
    case "template":
      return "a string";
    case "number":
      return `the number ${token.value}`;
    default:
      return `"${token.value}"`;
  }
}
