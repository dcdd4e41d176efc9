/** A refused single sign-on, as the browser shows it: what happened, in words, and the way back to the sign-in page. */
export function singleSignOnErrorPage(title: string, message: string): string {
  const html = (text: string) =>
    text.replace(
      /[&<>"']/g,
      (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
    );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${html(title)} · Tachyon</title>
</head>
<body>
<main>
<h1>${html(title)}</h1>
<p>${html(message)}</p>
<p><a href="/login">Back to the sign-in page</a></p>
</main>
</body>
</html>
`;
}
