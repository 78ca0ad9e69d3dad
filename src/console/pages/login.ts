/** The sign-in page: the console's token (OUTREACH_CONSOLE_TOKEN) asked once, kept as a session cookie. */
import { esc } from './format.js';
import { page } from './layout.js';

export function loginPage(options: { next: string; csrf: string; wrong?: boolean }): string {
  const wrong = options.wrong ? `<p class="note" id="wrong">That is not the console's token. Give the value of OUTREACH_CONSOLE_TOKEN the console was started with.</p>` : '';
  return page({
    title: 'Sign in: outreach console',
    header: '<h1>outreach console</h1>',
    body: `<section class="login">${wrong}<form method="post" action="/login">
<input type="hidden" name="csrf" value="${esc(options.csrf)}"><input type="hidden" name="next" value="${esc(options.next)}">
<label for="token">The console's token (OUTREACH_CONSOLE_TOKEN)</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
<button class="button" type="submit">Sign in</button>
</form><p class="hint">Scripts may send it instead as <code>Authorization: Bearer …</code>, or as the password of basic auth.</p></section>`,
  });
}
