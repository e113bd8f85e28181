import { type AppEnv, type ServiceApp, setHtmlSecurityHeaders } from "@svc/http";
import type { Context } from "hono";

/**
 * GET /: where the start banner's first link lands (decision 163). A browser (Accept naming
 * text/html) gets a short page leading to the reference, the dashboard and the capture demo;
 * any other client gets the same links as JSON, so `curl localhost:3000` says where to go
 * instead of a 404. Public, no key, nothing read from the database.
 */
const LINKS = [
  { rel: "docs", path: "/docs", title: "API reference", text: "every operation, with examples and “try it”" },
  { rel: "openapi", path: "/v1/openapi.json", title: "OpenAPI document", text: "the same reference as JSON" },
  {
    rel: "dashboard",
    path: "/dashboard",
    title: "Developer dashboard",
    text: "keys, webhooks, events and usage (sign in with the link the first start printed)",
  },
  {
    rel: "captureDemo",
    path: "/capture-demo",
    title: "Capture demo",
    text: "the browser capture library with the publishable key",
  },
  {
    rel: "errors",
    path: "/docs/errors",
    title: "Error codes",
    text: "what each error body's docs link means",
  },
] as const;

const STYLE = `body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f5f7fa;color:#1b1f23}
main{max-width:40rem;margin:2rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.5rem;margin:0 0 1rem}li{margin:.5rem 0}a{color:#0b5cad;font-weight:600}
code{background:#f0f3f6;padding:.1rem .3rem;border-radius:4px}.note{font-size:.9rem;color:#4a5560}`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Does the client ask for HTML before JSON (a browser's navigation)? */
function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = accept.indexOf("text/html");
  if (html < 0) return false;
  const json = accept.indexOf("application/json");
  return json < 0 || html < json;
}

function homePage(c: Context<AppEnv>, baseUrl: string): Response {
  if (!wantsHtml(c.req.header("accept"))) {
    c.header("Cache-Control", "no-store");
    return c.json({
      ok: true,
      data: {
        object: "service",
        name: "Clinical Intelligence Service",
        links: Object.fromEntries(LINKS.map((link) => [link.rel, link.path])),
        gettingAKey:
          "The first start prints a secret test key; another: pnpm svc keys create --account ID --kind secret_test",
      },
    });
  }
  const nonce = setHtmlSecurityHeaders(c);
  const items = LINKS.map((link) => `<li><a href="${link.path}">${link.title}</a>: ${link.text}</li>`).join(
    "\n",
  );
  return c.html(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Clinical Intelligence Service</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
<h1>Clinical Intelligence Service</h1>
<p>Decision support from derived numbers, for clinician review. The API lives under <code>/v1</code>.</p>
<ul>
${items}
</ul>
<p class="note">A key: the first start printed a secret test key (<code>svc_sk_test_...</code>). Another:
<code>pnpm svc keys create --account ID --kind secret_test</code>. Then
<code>curl -H "Authorization: Bearer svc_sk_test_..." ${escapeHtml(baseUrl)}/v1/ping</code>.</p>
</main>
</body>
</html>`);
}

export function registerHomePage(service: ServiceApp): void {
  service.plain("GET", "/", (c) => homePage(c, service.deps.publicBaseUrl), null);
}
