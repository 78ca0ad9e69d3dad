import { esc } from './format.js';

/** What every page of the console has: its title, its body, and where the script asks for its live parts. */
export interface PageParts {
  title: string;
  /** The header's content (a heading, links). */
  header: string;
  body: string;
  /** The JSON of the page's live parts (absent: nothing on the page moves). */
  live?: string;
  /** The text the live line starts with. */
  updated?: string;
  /** Shown in the header when the console asks for a token: a form to sign out. */
  signOut?: { csrf: string };
}

/** A whole page: the console's own style sheet and script (served by it), nothing from elsewhere. */
export function page(p: PageParts): string {
  const signOut = p.signOut
    ? `<form method="post" action="/logout"><input type="hidden" name="csrf" value="${esc(p.signOut.csrf)}"><button class="button" type="submit">sign out</button></form>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(p.title)}</title>
<link rel="stylesheet" href="/assets/console.css">
<script src="/assets/console.js" defer></script>
</head>
<body${p.live !== undefined ? ` data-live="${esc(p.live)}"` : ''}>
<main>
<header><nav><a href="/">all jobs</a>${p.live !== undefined ? `<span class="live" id="live">${esc(p.updated ?? '')}</span>` : ''}${signOut}</nav>${p.header}</header>
${p.body}
</main>
</body>
</html>
`;
}
