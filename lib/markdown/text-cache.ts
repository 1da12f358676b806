// A small least-recently-used cache keyed by text, bounded by entry count and by the total length
// of its keys: ChatMarkdown keeps each message's rendered markdown here, so switching tabs or
// threads and back does not parse the same transcript again.
export class TextCache<Value> {
  private readonly entries = new Map<string, Value>();
  private characters = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxCharacters: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached value (now the most recently used), or undefined. */
  get(text: string): Value | undefined {
    const value = this.entries.get(text);
    if (value === undefined) return undefined;
    this.entries.delete(text);
    this.entries.set(text, value);
    return value;
  }

  /** Stores a value, evicting the least recently used ones past either bound; longer texts than the bound are not kept. */
  set(text: string, value: Value): void {
    if (text.length > this.maxCharacters) return;
    if (this.entries.has(text)) this.entries.delete(text);
    else this.characters += text.length;
    this.entries.set(text, value);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.characters <= this.maxCharacters) break;
      this.entries.delete(oldest);
      this.characters -= oldest.length;
    }
  }

  /** The value for the text, computed and kept on a miss. */
  getOrCreate(text: string, create: (text: string) => Value): Value {
    const cached = this.get(text);
    if (cached !== undefined) return cached;
    const value = create(text);
    this.set(text, value);
    return value;
  }
}
