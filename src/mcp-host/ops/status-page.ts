// The status page shell served at GET /: no data of its own (it is served without the token), a
// token form, and a small script that reads the live sections from /ops/events (server-sent events
// over fetch, so the token travels in the Authorization header) and keeps the token for the tab only.
import { escapeHtml } from './status-html.js';

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#59636e;--line:#d1d9e0;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--focus:#0969da}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;--line:#3d444d;--ok:#3fb950;--bad:#f85149;--warn:#d29922;--focus:#4493f8}}
[hidden]{display:none!important}*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header,main{max-width:1280px;margin:0 auto;padding:0 1.25rem}header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline;border-bottom:1px solid var(--line);padding-top:.75rem;padding-bottom:.5rem}
h1{font-size:1.3rem;margin:0}h2{font-size:1.05rem;margin:1.4rem 0 .4rem}#conn{color:var(--muted)}
a:focus-visible,button:focus-visible,input:focus-visible,.scroll:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.25rem .5rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid var(--line);vertical-align:top;white-space:nowrap}
thead th{font-weight:600;color:var(--muted);white-space:nowrap}tbody th{font-weight:600;white-space:nowrap}
.badge{display:inline-block;padding:0 .45rem;border:1px solid currentColor;border-radius:1rem;font-size:.85em}
.s-ready,.s-ok{color:var(--ok)}.s-failed,.s-error{color:var(--bad)}.s-starting,.s-running,.s-idle{color:var(--warn)}
.error{color:var(--bad);white-space:pre-wrap;word-break:break-word}.earlier{color:var(--muted);white-space:pre-wrap;word-break:break-word}.req{color:var(--muted);font-size:.8em}.empty{color:var(--muted)}
form{margin:1rem 0;display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}input{font:inherit;padding:.3rem .5rem;min-width:22rem;max-width:100%}button{font:inherit;padding:.3rem .9rem}
`;

const SCRIPT = `
const KEY = 'switchboard-ops-token';
const live = document.getElementById('live'), conn = document.getElementById('conn'), form = document.getElementById('token-form');
let retry;
function askToken(message) {
  form.hidden = false;
  conn.textContent = message;
  document.getElementById('token').focus();
}
form.addEventListener('submit', (e) => {
  e.preventDefault();
  sessionStorage.setItem(KEY, document.getElementById('token').value.trim());
  document.getElementById('token').value = '';
  form.hidden = true;
  connect();
});
async function connect() {
  clearTimeout(retry);
  const token = sessionStorage.getItem(KEY);
  conn.textContent = 'connecting…';
  try {
    const res = await fetch('ops/events', { headers: token ? { Authorization: 'Bearer ' + token } : {}, cache: 'no-store' });
    if (res.status === 401) { sessionStorage.removeItem(KEY); return askToken(token ? 'That token was refused; enter the server\\'s token.' : 'Enter the server\\'s token to see its status.'); }
    if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
    conn.textContent = 'live';
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\\n\\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message', data = [];
        for (const line of block.split('\\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (event === 'status') { live.innerHTML = data.join('\\n'); conn.textContent = 'live, updated ' + new Date().toLocaleTimeString(); }
      }
    }
    throw new Error('stream ended');
  } catch (err) {
    conn.textContent = 'disconnected (' + err.message + '); retrying…';
    retry = setTimeout(connect, 1000);
  }
}
connect();
`;

export function renderPage(options: { title: string; version: string; nonce: string }): string {
  const title = escapeHtml(options.title);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} status</title><style nonce="${options.nonce}">${STYLE}</style></head>
<body><a class="skip" href="#live">Skip to status</a>
<header><h1>${title}</h1><span>switchboard ${escapeHtml(options.version)}</span><span id="conn" role="status" aria-live="polite">loading…</span>
<nav aria-label="Sections"><a href="#h-config">Configuration</a> · <a href="#h-upstreams">Upstreams</a> · <a href="#h-clients">Clients</a> · <a href="#h-calls">Calls</a> · <a href="#h-threads">Threads</a></nav></header>
<main><form id="token-form" hidden><label for="token">Token</label><input id="token" type="password" autocomplete="off" required><button type="submit">Show status</button></form>
<div id="live" tabindex="-1"></div></main>
<script nonce="${options.nonce}">${SCRIPT}</script></body></html>`;
}
