import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Context } from "hono";
import { ERROR_CODES, ERROR_DESCRIPTIONS } from "./errors.js";

/**
 * The API reference at /docs: Scalar's standalone renderer (`@scalar/api-reference`), served from
 * our own origin out of node_modules, so the page works with the machine offline and sends
 * nothing to anyone else (telemetry, fonts, Scalar's cloud features and its proxy are off; the
 * page's CSP allows connections to its own origin only). The error codes have a plain page of
 * their own, /docs/errors, which every error body's `docs` link points into.
 */

export const REFERENCE_PATH = "/docs";
export const ERROR_CODES_PATH = "/docs/errors";
const SCALAR_PACKAGE = "@scalar/api-reference";
/** Versioned, so the 4 MB bundle can be cached for a long time and a new version is fetched anew. */
const ASSET_MAX_AGE_SECONDS = 86_400;

interface ScalarPackage {
  version: string;
  /** The standalone bundle's path: the package exports only its entry, so it is found next to it. */
  bundlePath: string;
}

let scalarPackage: ScalarPackage | undefined;
let bundleSource: Buffer | undefined;

function locateScalar(): ScalarPackage {
  if (scalarPackage) return scalarPackage;
  const require = createRequire(import.meta.url);
  const dist = path.dirname(require.resolve(SCALAR_PACKAGE));
  const manifest = JSON.parse(readFileSync(path.join(dist, "..", "package.json"), "utf8")) as {
    version: string;
  };
  scalarPackage = { version: manifest.version, bundlePath: path.join(dist, "browser", "standalone.js") };
  return scalarPackage;
}

/** The 4 MB bundle, read on its first request (a process that never serves /docs never holds it). */
function scalarBundle(): Buffer {
  bundleSource ??= readFileSync(locateScalar().bundlePath);
  return bundleSource;
}

/** Where the page loads the bundle from (the version in the path busts caches on upgrade). */
export function scalarAssetPath(): string {
  return `${REFERENCE_PATH}/assets/scalar-${locateScalar().version}.js`;
}

/** Our few lines that start the renderer with the configuration the page carries as JSON. */
const STARTER_SOURCE = `(() => {
  const config = JSON.parse(document.getElementById("reference-config").textContent);
  window.Scalar.createApiReference("#reference", config);
})();
`;
export const STARTER_PATH = `${REFERENCE_PATH}/assets/start.js`;

/** Renderer options: the document from this origin, nothing sent elsewhere. */
function scalarConfiguration(documentUrl: string): Record<string, unknown> {
  return {
    url: documentUrl,
    telemetry: false,
    withDefaultFonts: false,
    showDeveloperTools: "never",
    agent: { disabled: true },
    mcp: { disabled: true },
    documentDownloadType: "json",
    hideClientButton: false,
    defaultOpenAllTags: true,
    // curl first; the operations' own `@svc/sdk` samples (x-codeSamples) are one choice away.
    // Without this the renderer opens on a document's own samples.
    defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** JSON inside a <script type="application/json"> element: "<" escaped so it cannot close the element. */
function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

// biome-ignore lint/suspicious/noExplicitAny: any app env.
type AnyContext = Context<any>;

/**
 * The reference page's headers: scripts only from this origin (the bundle and our starter),
 * styles from this origin and the renderer's own inline styles, connections only to this origin
 * (the document and "try it" requests), no framing, no referrer, no caching of the page.
 */
function setReferencePageHeaders(c: AnyContext): void {
  c.header(
    "Content-Security-Policy",
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  );
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Cross-Origin-Opener-Policy", "same-origin");
  c.header("Cache-Control", "no-store");
}

export function referencePage(c: AnyContext, title: string): Response {
  setReferencePageHeaders(c);
  const config = scalarConfiguration("/v1/openapi.json");
  return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} API reference</title></head>
<body>
<noscript>This reference needs JavaScript. The document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>; error codes at <a href="${ERROR_CODES_PATH}">${ERROR_CODES_PATH}</a>.</noscript>
<div id="reference"></div>
<script type="application/json" id="reference-config">${jsonForScriptElement(config)}</script>
<script src="${scalarAssetPath()}"></script>
<script src="${STARTER_PATH}"></script>
</body></html>`);
}

export function scalarAsset(c: AnyContext): Response {
  return c.body(new Uint8Array(scalarBundle()), 200, {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": `public, max-age=${ASSET_MAX_AGE_SECONDS}, immutable`,
    "x-content-type-options": "nosniff",
  });
}

export function starterAsset(c: AnyContext): Response {
  return c.body(STARTER_SOURCE, 200, {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": "no-cache",
    "x-content-type-options": "nosniff",
  });
}

/** Every error code with its meaning; `#error-<code>` anchors are what error bodies link to. */
export function renderErrorCodesPage(title: string, styleNonce: string): string {
  const rows = ERROR_CODES.map(
    (code) =>
      `<tr id="error-${code}"><td><code>${code}</code></td><td>${escapeHtml(ERROR_DESCRIPTIONS[code])}</td></tr>`,
  ).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} error codes</title>
<style nonce="${styleNonce}">body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1b1f23}code{font-family:ui-monospace,monospace}table{border-collapse:collapse}td,th{border-top:1px solid #ddd;padding:.35rem .6rem;text-align:left;vertical-align:top}tr:target{background:#fff8c5}</style></head>
<body><main><h1>Error codes</h1>
<p>Every error answer names one of these codes. The full reference is at <a href="${REFERENCE_PATH}">${REFERENCE_PATH}</a>.</p>
<table><thead><tr><th scope="col">code</th><th scope="col">meaning</th></tr></thead><tbody>
${rows}
</tbody></table></main></body></html>`;
}
