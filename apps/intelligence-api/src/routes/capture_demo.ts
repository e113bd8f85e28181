import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  ApiError,
  type AppEnv,
  authenticateKey,
  bearerToken,
  originAllowed,
  type ServiceApp,
  setHtmlSecurityHeaders,
} from "@svc/http";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * GET /capture-demo: a short guided session with the browser capture library (@svc/capture). The
 * page speaks a few prompts (the browser's speech synthesis when present), marks each prompt's
 * end, shows the numbers measured on the device and the analysis the service returns. The
 * publishable key comes from the page's form, never from the server. GET /capture-demo/capture.js
 * serves the library's built bundle (packages/capture/dist, made by `pnpm build`).
 *
 * Start first asks POST /capture-demo/check whether the key is a publishable key that allows this
 * page's origin, and opens the microphone only then: a session is never recorded only to be
 * refused when Finish sends it.
 *
 * CSP: scripts only from this origin, the nonce'd inline module, and blob: (the library loads its
 * AudioWorklet from a Blob URL); requests only to this origin; no framing, no forms elsewhere.
 */

const BUNDLE_RELATIVE = "packages/capture/dist/capture.js";

/**
 * The bundle's path: walk up from this module (src/routes in development, dist/ once bundled,
 * /app in the image) to the workspace folder that holds it.
 */
function findBundle(): string | null {
  let dir = import.meta.dirname;
  for (let depth = 0; depth < 8; depth++) {
    const candidate = path.join(dir, BUNDLE_RELATIVE);
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

const PROMPTS = [
  "Please tell me your name and what you did this morning.",
  "How have you been sleeping this week?",
  "Describe a place where you feel at ease.",
];

const STYLE = `body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f5f7fa;color:#1b1f23}
main{max-width:40rem;margin:2rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.5rem;margin:0 0 1rem}label{display:block;font-weight:600;margin:.5rem 0 .25rem}
input{width:100%;padding:.6rem;font:inherit;border:1px solid #b8c2cc;border-radius:6px;box-sizing:border-box}
button{padding:.7rem 1rem;font:inherit;font-weight:600;color:#fff;background:#0b5cad;border:0;border-radius:8px;cursor:pointer;margin:.75rem .5rem 0 0}
button:disabled{background:#8aa4bf;cursor:default}#prompt{font-size:1.2rem;min-height:2em}
pre{background:#f0f3f6;padding:1rem;border-radius:8px;overflow:auto;font-size:.85rem}.note{font-size:.9rem;color:#4a5560}`;

/** The page's script: a module importing the bundle; ids it touches are in BODY. */
const SCRIPT = `import { createCapture } from "/capture-demo/capture.js";
const prompts = ${JSON.stringify(PROMPTS)};
const $ = (id) => document.getElementById(id);
let session = null;
let index = -1;
let timer = null;
function show(id, value) { $(id).textContent = typeof value === "string" ? value : JSON.stringify(value, null, 2); }
function speak(text) {
  return new Promise((resolve) => {
    // No synthesis (or no voices, e.g. headless): the prompt is read from the screen.
    if (!("speechSynthesis" in window) || speechSynthesis.getVoices().length === 0) return resolve();
    setTimeout(resolve, 15000);
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.onend = () => resolve();
    utterance.onerror = () => resolve();
    speechSynthesis.speak(utterance);
  });
}
async function nextPrompt() {
  index += 1;
  $("next").disabled = true;
  if (index >= prompts.length) { show("prompt", "Thank you. Press Finish to send the numbers."); return; }
  show("prompt", prompts[index]);
  await speak(prompts[index]);
  session.promptEnded();
  $("next").disabled = false;
}
$("origin").textContent = location.origin;
/** The key and this page's origin, checked before anything is recorded; an error message or null. */
async function checkKey(key) {
  try {
    const response = await fetch("/capture-demo/check", {
      method: "POST",
      headers: { authorization: "Bearer " + key },
      credentials: "omit",
    });
    const body = await response.json();
    return body.ok ? null : body.error.code + ": " + body.error.message;
  } catch (error) {
    return "network_error: the key could not be checked (" + error.message + ")";
  }
}
$("start").addEventListener("click", async () => {
  const key = $("key").value.trim();
  $("start").disabled = true;
  show("status", "Checking the key...");
  const refusal = await checkKey(key);
  if (refusal) { show("status", refusal + " Nothing was recorded."); $("start").disabled = false; return; }
  show("status", "Asking for the microphone...");
  try {
    session = await createCapture({ baseUrl: location.origin, publishableKey: key }).start();
  } catch (error) { show("status", error.code + ": " + error.message); $("start").disabled = false; return; }
  $("start").disabled = true; $("finish").disabled = false; $("abort").disabled = false;
  show("status", "Listening. Answer each prompt aloud, then press Next.");
  timer = setInterval(() => show("metrics", session.metrics()), 500);
  await nextPrompt();
});
$("next").addEventListener("click", () => nextPrompt());
async function stop(send) {
  clearInterval(timer);
  $("next").disabled = true; $("finish").disabled = true; $("abort").disabled = true;
  if (!send) { await session.abort(); show("status", "Stopped; nothing was sent."); $("start").disabled = false; return; }
  try {
    const { metrics, analysis } = await session.finish({ sessionRef: "capture-demo" });
    show("metrics", metrics); show("analysis", analysis); show("status", "Done.");
  } catch (error) {
    show("status", error.code + ": " + error.message + (error.requestId ? " (" + error.requestId + ")" : ""));
  }
  $("start").disabled = false; index = -1;
}
$("finish").addEventListener("click", () => stop(true));
$("abort").addEventListener("click", () => stop(false));
`;

const BODY = `<p>A short guided session: a few prompts, your spoken answers measured in this browser. Only
numbers (response latency, speech rate, session length) are sent; audio never leaves the device.</p>
<label for="key">Publishable key</label>
<input id="key" name="key" autocomplete="off" spellcheck="false" placeholder="svc_pk_...">
<p class="note">The key's allow-list must hold this page's origin, <code id="origin"></code>; Start checks it before recording.</p>
<button id="start" type="button">Start</button><button id="next" type="button" disabled>Next</button><button id="finish" type="button" disabled>Finish</button><button id="abort" type="button" disabled>Stop without sending</button>
<p id="prompt" aria-live="polite"></p>
<p id="status" role="status"></p>
<h2>Measured on this device</h2><pre id="metrics">-</pre>
<h2>Analysis</h2><pre id="analysis">-</pre>`;

function demoPage(c: Context<AppEnv>): Response {
  const nonce = setHtmlSecurityHeaders(c);
  c.header(
    "Content-Security-Policy",
    `default-src 'none'; script-src 'self' 'nonce-${nonce}' blob:; connect-src 'self'; style-src 'nonce-${nonce}'; img-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
  );
  c.header("Permissions-Policy", "microphone=(self)");
  return c.html(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Capture demo</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
<h1>Capture demo</h1>
${BODY}
</main>
<script type="module" nonce="${nonce}">${SCRIPT}</script>
</body>
</html>`);
}

/**
 * POST /capture-demo/check: whether the Bearer key could send this page's session, checked the
 * way POST /v1/dmse/analyze will check it (the key, then the request's Origin against its
 * allow-list). It reads nothing but the key and costs no quota; the analysis request itself is
 * still authorized on its own. A secret or organization key is refused here, since a web page
 * must never hold one. Answers `{ ok: true, origin }` or `{ ok: false, error: { code, message } }`.
 */
async function checkDemoKey(service: ServiceApp, c: Context<AppEnv>): Promise<Response> {
  const origin = c.req.header("origin");
  try {
    const row = await authenticateKey(
      service.deps.db,
      bearerToken(c.req.header("authorization")),
      service.deps.keyCache,
    );
    if (row.kind !== "publishable")
      throw new ApiError(
        "forbidden",
        "This is not a publishable key: a web page must use the publishable key (svc_pk_...), never a secret or organization key.",
      );
    if (!originAllowed(origin, row.origins))
      throw new ApiError(
        "forbidden",
        `This page's origin (${origin ?? "none"}) is not in the key's allow-list (${row.origins.join(", ") || "empty"}). Open the page from an allowed origin, or add this one to the key's origins.`,
      );
    c.header("Cache-Control", "no-store");
    return c.json({ ok: true, origin });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const message = error.code === "unauthorized" ? "Enter the publishable key (svc_pk_...)." : error.message;
    c.header("Cache-Control", "no-store");
    return c.json({ ok: false, error: { code: error.code, message } }, error.status as ContentfulStatusCode);
  }
}

export function registerCaptureDemo(service: ServiceApp): void {
  let bundle: string | null = null;
  service.plain("GET", "/capture-demo", (c) => demoPage(c), null);
  service.plain("POST", "/capture-demo/check", (c) => checkDemoKey(service, c), null);
  service.plain(
    "GET",
    "/capture-demo/capture.js",
    (c) => {
      const file = findBundle();
      bundle ??= file ? readFileSync(file, "utf8") : null;
      c.header("X-Content-Type-Options", "nosniff");
      if (!bundle) return c.text("The capture library is not built (pnpm build).", 503);
      c.header("Cache-Control", "no-cache");
      return c.body(bundle, 200, { "Content-Type": "text/javascript; charset=utf-8" });
    },
    null,
  );
}
