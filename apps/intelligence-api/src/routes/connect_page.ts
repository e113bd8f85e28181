import { randomBytes, timingSafeEqual } from "node:crypto";
import { ApiError, type AppEnv, type ServiceApp, setHtmlSecurityHeaders } from "@svc/http";
import { CONNECT_TOKEN_PATTERN, completeConnection, findConnectionByToken, findProvider } from "@svc/records";
import type { Context } from "hono";
import { type ConnectStrings, connectStrings } from "../wearables/languages.js";

/**
 * The hosted connect page (decision 36): GET /connect/{token} lists the connection's providers as
 * buttons; choosing one posts the form back to the same address, which connects the sandbox
 * provider and shows a confirmation. No key: the 256-bit token in the path is the credential.
 *
 * Hardening: no external assets; a strict Content-Security-Policy (nothing but one nonce'd inline
 * style, forms only to this origin, no framing); `Referrer-Policy: no-referrer` so the token never
 * leaks to another site; `nosniff` and `no-store` (set for every response). The form post is
 * protected against cross-site request forgery three ways: the token in the path, a per-page
 * double-submit value (an HttpOnly SameSite=Strict cookie scoped to this path that must match a
 * hidden field), and a same-origin check on `Origin` / `Sec-Fetch-Site`.
 */

const CSRF_COOKIE = "svc_connect_csrf";
const FORM_MAX_BYTES = 4096;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function fill(template: string, provider: string): string {
  return escapeHtml(template).replace("{provider}", escapeHtml(provider));
}

const STYLE = `body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f5f7fa;color:#1b1f23}
main{max-width:32rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.5rem;margin:0 0 1rem}ul{list-style:none;padding:0;margin:1.5rem 0}li{margin:.5rem 0}
button{width:100%;padding:.85rem 1rem;font:inherit;font-weight:600;color:#fff;background:#0b5cad;border:0;border-radius:8px;cursor:pointer}
button:hover{background:#094a8a}button:focus-visible{outline:3px solid #f0b400;outline-offset:2px}
.note{font-size:.9rem;color:#4a5560}`;

interface PageOptions {
  lang: string;
  title: string;
  body: string;
  status: 200 | 400 | 403 | 404 | 409 | 413 | 503;
  cookie?: { token: string; value: string };
}

function page(c: Context<AppEnv>, options: PageOptions): Response {
  const nonce = setHtmlSecurityHeaders(c, { allowFormsToSelf: true });
  if (options.cookie) {
    const secure = new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
    c.header(
      "Set-Cookie",
      `${CSRF_COOKIE}=${options.cookie.value}; Path=/connect/${options.cookie.token}; HttpOnly; SameSite=Strict; Max-Age=3600${secure ? "; Secure" : ""}`,
    );
  }
  const html = `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(options.title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(options.title)}</h1>
${options.body}
</main>
</body>
</html>`;
  return c.html(html, options.status);
}

function notFound(c: Context<AppEnv>): Response {
  const { lang, strings } = connectStrings("en");
  return page(c, {
    lang,
    title: strings.notFoundTitle,
    body: `<p>${escapeHtml(strings.notFoundBody)}</p>`,
    status: 404,
  });
}

async function findByToken(c: Context<AppEnv>, service: ServiceApp) {
  const token = c.req.param("token") ?? "";
  if (!CONNECT_TOKEN_PATTERN.test(token)) return null;
  const row = await findConnectionByToken(service.deps.db, token);
  return row ? { token, row } : null;
}

function statePage(
  c: Context<AppEnv>,
  lang: string,
  strings: ConnectStrings,
  status: string,
  provider: string | null,
) {
  if (status === "connected") {
    const name = provider ? (findProvider(provider)?.displayName ?? provider) : "";
    return page(c, {
      lang,
      title: strings.connectedTitle,
      body: `<p role="status">${fill(strings.alreadyConnected, name)}</p>`,
      status: 409,
    });
  }
  return page(c, {
    lang,
    title: strings.title,
    body: `<p role="status">${escapeHtml(strings.disconnected)}</p>`,
    status: 409,
  });
}

function sameOrigin(c: Context<AppEnv>, publicBaseUrl: string): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return false;
  const origin = c.req.header("origin");
  if (!origin || origin === "null") return site === "same-origin" || origin === undefined;
  const host = c.req.header("host");
  const allowed = new Set<string>();
  try {
    allowed.add(new URL(publicBaseUrl).origin);
  } catch {
    // an invalid base URL allows nothing extra
  }
  if (host) {
    const proto = c.req.header("x-forwarded-proto") ?? new URL(c.req.url).protocol.replace(":", "");
    allowed.add(`${proto}://${host}`);
  }
  return allowed.has(origin);
}

function cookieValue(c: Context<AppEnv>): string | undefined {
  const header = c.req.header("cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === CSRF_COOKIE) return rest.join("=");
  }
  return undefined;
}

function equalSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The posted form once it passes the origin, size, type and CSRF checks; else the status to refuse with. */
async function checkedForm(c: Context<AppEnv>, publicBaseUrl: string): Promise<URLSearchParams | 403 | 413> {
  if (!sameOrigin(c, publicBaseUrl)) return 403;
  const length = Number(c.req.header("content-length") ?? "NaN");
  if (!Number.isFinite(length) || length > FORM_MAX_BYTES) return 413;
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) return 403;
  const form = new URLSearchParams(await c.req.text());
  const sent = form.get("csrf") ?? "";
  const cookie = cookieValue(c);
  if (!cookie || !sent || !equalSecret(cookie, sent)) return 403;
  return form;
}

interface PageView {
  token: string;
  lang: string;
  strings: ConnectStrings;
}

function alertPage(
  c: Context<AppEnv>,
  view: PageView,
  text: string,
  status: PageOptions["status"],
): Response {
  const body = `<p role="alert">${escapeHtml(text)}</p>`;
  return page(c, { lang: view.lang, title: view.strings.title, body, status });
}

/** GET: the provider buttons of a pending connection, or the state it is already in. */
async function showConnectPage(c: Context<AppEnv>, service: ServiceApp): Promise<Response> {
  const found = await findByToken(c, service);
  if (!found) return notFound(c);
  const { token, row } = found;
  const { lang, strings } = connectStrings(row.language);
  if (row.status !== "pending") return statePage(c, lang, strings, row.status, row.provider);
  const csrf = randomBytes(24).toString("base64url");
  const buttons = row.providers
    .map((code) => {
      const provider = findProvider(code);
      const label = fill(strings.connectWith, provider?.displayName ?? code);
      return `<li><button type="submit" name="provider" value="${escapeHtml(code)}">${label}</button></li>`;
    })
    .join("\n");
  const body = `<p>${escapeHtml(strings.intro)}</p>
<form method="post" action="/connect/${escapeHtml(token)}">
<input type="hidden" name="csrf" value="${csrf}">
<ul>
${buttons}
</ul>
</form>
<p class="note">${escapeHtml(strings.privacy)}</p>`;
  return page(c, { lang, title: strings.title, body, status: 200, cookie: { token, value: csrf } });
}

/** POST: the patient chose a provider; connect it after the form checks. */
async function submitConnectPage(c: Context<AppEnv>, service: ServiceApp): Promise<Response> {
  const found = await findByToken(c, service);
  if (!found) return notFound(c);
  const { token, row } = found;
  const view: PageView = { token, ...connectStrings(row.language) };
  const form = await checkedForm(c, service.deps.publicBaseUrl);
  if (typeof form === "number") return alertPage(c, view, view.strings.expired, form);
  if (row.status !== "pending") return statePage(c, view.lang, view.strings, row.status, row.provider);
  // Real provider authorization (OAuth) is not wired yet: never mark a live connection connected.
  if (row.mode !== "test") return alertPage(c, view, view.strings.unavailable, 503);
  return connectSandboxProvider(c, service, view, form.get("provider") ?? "");
}

async function connectSandboxProvider(
  c: Context<AppEnv>,
  service: ServiceApp,
  view: PageView,
  providerCode: string,
): Promise<Response> {
  const { token, lang, strings } = view;
  try {
    const outcome = await completeConnection(service.deps.db, { token }, providerCode);
    const name = findProvider(outcome.connection.provider ?? "")?.displayName ?? providerCode;
    c.header("Set-Cookie", `${CSRF_COOKIE}=; Path=/connect/${token}; HttpOnly; SameSite=Strict; Max-Age=0`);
    return page(c, {
      lang,
      title: strings.connectedTitle,
      body: `<p role="status">${fill(strings.connectedBody, name)}</p>`,
      status: 200,
    });
  } catch (error) {
    // Someone else moved it first: show the state it is in now.
    if (error instanceof ApiError && error.code === "invalid_transition") {
      const fresh = await findConnectionByToken(service.deps.db, token);
      return statePage(c, lang, strings, fresh?.status ?? "disconnected", fresh?.provider ?? null);
    }
    // A provider the connection does not offer (a tampered form).
    if (error instanceof ApiError && error.code === "invalid_request") {
      return alertPage(c, view, strings.expired, 400);
    }
    throw error;
  }
}

export function registerConnectPage(service: ServiceApp): void {
  service.plain("GET", "/connect/:token", (c) => showConnectPage(c, service), null);
  service.plain("POST", "/connect/:token", (c) => submitConnectPage(c, service), null);
}
