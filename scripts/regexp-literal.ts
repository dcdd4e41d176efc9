/** `text` as a regular expression's source that matches it literally (Node 20 has no `RegExp.escape`). */
export const regExpLiteral = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
