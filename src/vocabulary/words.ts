/** Words for counts, as staff read them: "1 line", "2 lines", "1,752 lines". */

/** `n` and the word for one or for many: never "1 lines". */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
