/** Small typos of the suggestion index's query: the words one edit away. */
/** Calls `found` with every word one edit from `word` (a letter left out, two swapped, one changed, one added), some twice. */
export function forEachOneEditAway(word: string, found: (near: string) => void): void {
  for (let i = 0; i <= word.length; i++) {
    const a = word.slice(0, i);
    const b = word.slice(i);
    const rest = b.slice(1);
    if (b) found(a + rest);
    if (b.length > 1) found(a + (b[1] as string) + (b[0] as string) + b.slice(2));
    for (let c = 97; c <= 122; c++) {
      const letter = String.fromCharCode(c);
      if (b && letter !== b[0]) found(a + letter + rest);
      found(a + letter + b);
    }
  }
}
