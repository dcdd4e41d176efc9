/** "a" or "an" before a word, by its first letter as English speakers mostly say it ("an Apple", "a Samsung"). */
export function indefiniteArticle(word: string): 'a' | 'an' {
  return /^[aeiou]/i.test(word.trim()) ? 'an' : 'a';
}
