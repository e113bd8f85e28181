/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { randomBytes } from "node:crypto";
import {
  type AppEnv,
  declaredFormWithin,
  formTokenMatches,
  fromOurPage,
  type ServiceApp,
  setHtmlSecurityHeaders,
} from "@svc/http";
import { CONNECT_TOKEN_PATTERN, completeConnection, findConnectionByToken, findProvider } from "@svc/records";
import { Refusal } from "@svc/refusal";
import type { Context } from "hono";
import type { Child } from "hono/jsx";
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
 * hidden field), and the same-origin check every browser form of ours passes (`fromOurPage`,
 * decision 109).
 */

const CSRF_COOKIE = "svc_connect_csrf";
const FORM_MAX_BYTES = 4096;

/** A translated sentence with the provider's name in place of `{provider}` (escaped when rendered). */
function fill(template: string, provider: string): string {
  return template.replace("{provider}", () => provider);
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
  body: Child;
  status: 200 | 400 | 403 | 404 | 409 | 413 | 503;
  cookie?: { token: string; value: string };
}

/**
 * The page, rendered with Hono JSX like the dashboard's (every value escaped); the one inline
 * style carries the nonce of this response's Content-Security-Policy.
 */
function page(c: Context<AppEnv>, options: PageOptions): Response {
  const nonce = setHtmlSecurityHeaders(c, { allowFormsToSelf: true });
  if (options.cookie) {
    const secure = new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
    c.header(
      "Set-Cookie",
      `${CSRF_COOKIE}=${options.cookie.value}; Path=/connect/${options.cookie.token}; HttpOnly; SameSite=Strict; Max-Age=3600${secure ? "; Secure" : ""}`,
    );
  }
  const html = (
    <html lang={options.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{options.title}</title>
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main>
          <h1>{options.title}</h1>
          {options.body}
        </main>
      </body>
    </html>
  );
  return c.html(`<!doctype html>\n${html}`, options.status);
}

function notFound(c: Context<AppEnv>): Response {
  const { lang, strings } = connectStrings("en");
  return page(c, {
    lang,
    title: strings.notFoundTitle,
    body: <p>{strings.notFoundBody}</p>,
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
      body: <p role="status">{fill(strings.alreadyConnected, name)}</p>,
      status: 409,
    });
  }
  return page(c, {
    lang,
    title: strings.title,
    body: <p role="status">{strings.disconnected}</p>,
    status: 409,
  });
}

function cookieValue(c: Context<AppEnv>): string | undefined {
  const header = c.req.header("cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === CSRF_COOKIE) return rest.join("=");
  }
  return undefined;
}

/** The posted form once it passes the origin, size, type and CSRF checks; else the status to refuse with. */
async function checkedForm(c: Context<AppEnv>, publicBaseUrl: string): Promise<URLSearchParams | 403 | 413> {
  if (!fromOurPage(c, publicBaseUrl)) return 403;
  if (!declaredFormWithin(c, FORM_MAX_BYTES)) return 413;
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) return 403;
  const form = new URLSearchParams(await c.req.text());
  if (!formTokenMatches(cookieValue(c) ?? "", form.get("csrf"))) return 403;
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
  return page(c, { lang: view.lang, title: view.strings.title, body: <p role="alert">{text}</p>, status });
}

/** GET: the provider buttons of a pending connection, or the state it is already in. */
async function showConnectPage(c: Context<AppEnv>, service: ServiceApp): Promise<Response> {
  const found = await findByToken(c, service);
  if (!found) return notFound(c);
  const { token, row } = found;
  const { lang, strings } = connectStrings(row.language);
  if (row.status !== "pending") return statePage(c, lang, strings, row.status, row.provider);
  const csrf = randomBytes(24).toString("base64url");
  const body = (
    <>
      <p>{strings.intro}</p>
      <form method="post" action={`/connect/${token}`}>
        <input type="hidden" name="csrf" value={csrf} />
        <ul>
          {row.providers.map((code) => (
            <li>
              <button type="submit" name="provider" value={code}>
                {fill(strings.connectWith, findProvider(code)?.displayName ?? code)}
              </button>
            </li>
          ))}
        </ul>
      </form>
      <p class="note">{strings.privacy}</p>
    </>
  );
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
      body: <p role="status">{fill(strings.connectedBody, name)}</p>,
      status: 200,
    });
  } catch (error) {
    // Someone else moved it first: show the state it is in now.
    if (error instanceof Refusal && error.code === "invalid_transition") {
      const fresh = await findConnectionByToken(service.deps.db, token);
      return statePage(c, lang, strings, fresh?.status ?? "disconnected", fresh?.provider ?? null);
    }
    // A provider the connection does not offer (a tampered form).
    if (error instanceof Refusal && error.code === "invalid_request") {
      return alertPage(c, view, strings.expired, 400);
    }
    throw error;
  }
}

export function registerConnectPage(service: ServiceApp): void {
  service.plain("GET", "/connect/:token", (c) => showConnectPage(c, service), null);
  service.plain("POST", "/connect/:token", (c) => submitConnectPage(c, service), null);
}
