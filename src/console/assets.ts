/**
 * The console's two static files, served by the console itself (nothing is fetched from elsewhere):
 * its style sheet (report.html's, and a few rules of its own) and the few lines of script that keep a
 * page's figures current. Without the script a page is complete as served; with it, each live part of
 * the page is replaced by the server's fresh rendering of it every 2 seconds.
 */
import { STYLE } from '../report/html/style.js';

/** How often a page asks for its fresh parts (ms): a running job's figures move on screen within 5 s. */
export const LIVE_EVERY_MS = 2_000;

export const CONSOLE_CSS = `${STYLE}
code { white-space: normal; overflow-wrap: anywhere; }
#recipient-rows code, #recipient-rows td:nth-child(6) { white-space: nowrap; }
header nav { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: baseline; font-size: .9rem; margin-bottom: 6px; }
header nav form { display: inline; margin: 0; }
a { color: var(--sent); }
.live { color: var(--muted); font-size: .8rem; }
.live.lost { color: var(--failed); }
.state { margin: 0 0 8px; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: .75rem; font-weight: 650; border-radius: 999px; padding: 1px 9px; margin-right: 6px; background: #eef2f7; color: var(--muted); }
.badge.running { background: #e3f4e8; color: #22753a; } .badge.finished { background: #e8eefb; color: #2d55a8; }
.badge.gone { background: #fdeaea; color: #a33; } .badge.idle { background: #fff1e0; color: #9a5a12; }
.jobs h2 { display: flex; flex-wrap: wrap; gap: 2px 10px; align-items: baseline; overflow-wrap: anywhere; }
.jobs h2 .company { color: var(--muted); font-size: .85rem; font-weight: 400; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 4px 16px; margin: 10px 0 0; font-size: .9rem; }
.facts div { overflow-wrap: anywhere; }
.facts .k { color: var(--muted); }
progress { width: 100%; height: 16px; accent-color: var(--sent); }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 10px; }
.button { display: inline-block; border: 1px solid var(--line); border-radius: 8px; padding: 6px 14px; background: #fff; color: var(--ink); font: inherit; text-decoration: none; cursor: pointer; }
.button.danger { background: var(--failed); border-color: var(--failed); color: #fff; font-weight: 600; }
form.filter { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; margin-bottom: 10px; }
form.filter label { display: grid; gap: 2px; font-size: .8rem; color: var(--muted); }
input, select { font: inherit; padding: 5px 8px; border: 1px solid var(--line); border-radius: 6px; max-width: 100%; }
.pager { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: baseline; margin-top: 8px; font-size: .9rem; }
.note { background: #fff8e6; border: 1px solid #f3dca8; border-radius: 8px; padding: 8px 10px; font-size: .88rem; overflow-wrap: anywhere; }
.note.ok { background: #e9f7ee; border-color: #bfe3cb; }
.login { max-width: 420px; }
.login form { display: grid; gap: 10px; }
[data-section]:empty { display: none; }
`;

/** The page script: asks `document.body.dataset.live` for the page's parts every LIVE_EVERY_MS and puts each changed one in place. */
export const CONSOLE_JS = `'use strict';
(() => {
  const url = document.body.dataset.live;
  if (!url) return;
  const shown = document.getElementById('live');
  const last = new Map();
  const tick = async () => {
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' });
      if (res.status === 401 || res.status === 404) { location.reload(); return; }
      if (!res.ok) throw new Error('HTTP ' + res.status);
      const data = await res.json();
      for (const [name, html] of Object.entries(data.sections)) {
        if (last.get(name) === html) continue;
        const el = document.querySelector('[data-section="' + name + '"]');
        if (el) el.innerHTML = html;
        last.set(name, html);
      }
      if (shown) { shown.textContent = data.updated; shown.classList.remove('lost'); }
    } catch (err) {
      if (shown) { shown.textContent = 'cannot reach the console (' + err.message + '); trying again'; shown.classList.add('lost'); }
    } finally {
      setTimeout(tick, ${LIVE_EVERY_MS});
    }
  };
  setTimeout(tick, ${LIVE_EVERY_MS});
})();
`;
