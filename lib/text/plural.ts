// Counts and articles in UI text: "1 agent", "2 agents", "an agent", "a prompt".

const IRREGULAR: Readonly<Record<string, string>> = {
  child: "children",
  person: "people",
};

/** The plural of an English noun: irregulars, "-y" after a consonant, sibilants, else "-s". */
export function pluralOf(noun: string): string {
  const irregular = IRREGULAR[noun];
  if (irregular) return irregular;
  if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/** "0 agents", "1 agent", "2 agents"; pass `plural` for a noun the rules get wrong. */
export function plural(count: number, noun: string, pluralForm: string = pluralOf(noun)): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? noun : pluralForm}`;
}

/** "an agent", "a prompt", "an error", "a user", "an API" (by sound for the common exceptions). */
export function withArticle(phrase: string): string {
  const first = phrase.trimStart().split(/\s/)[0] ?? "";
  // An acronym is read letter by letter: "an API", "an SDK", "a URL".
  if (first.length > 1 && first === first.toUpperCase() && /^[A-Z]/.test(first)) {
    return `${/^[AEFHILMNORSX]/.test(first) ? "an" : "a"} ${phrase}`;
  }
  const word = phrase.trimStart().toLowerCase();
  const vowelSound = /^[aeiou]/.test(word) && !/^(u[bcfhjkqrstn][aeiou]|uni|use|eu|one)/.test(word);
  const silentH = /^(hour|honest|honou?r|heir)/.test(word);
  return `${vowelSound || silentH ? "an" : "a"} ${phrase}`;
}
