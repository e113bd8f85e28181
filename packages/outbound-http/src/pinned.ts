import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import {
  addressPolicyFor,
  checkEndpointUrl,
  classifyAddress,
  isAllowedAddress,
  isLocalhostName,
} from "./address.js";

/**
 * The outbound HTTP client, apart from what calls it: which addresses a caller-registered URL may
 * be reached at now (decision 48, checked again before every request), one request pinned to those
 * addresses, and the short machine reasons for a failed exchange. It knows nothing of delivery
 * rows, retries or the database; `@svc/delivery` runs the delivery steps around it (decision 108)
 * and `@svc/ehr-gateway` its EHR fetches (decision 122). A package of its own (decision 127), so
 * that the EHR gateway, and `@svc/records` through it, reach no queue.
 */

/**
 * What the client needs of an endpoint (a webhook endpoint row, a CDS client's EHR settings): its
 * URL and the settings its address rules follow.
 */
export interface EndpointTarget {
  url: string;
  mode: "test" | "live";
  allowPrivate: boolean;
}

/** Decision 48: at most the first 1 kB of a receiver's body is kept (never logged). */
export const RESPONSE_SNIPPET_BYTES = 1024;
/** C0 controls except tab and newline, DEL, and the C1 controls: not kept in a stored snippet. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE_SNIPPET_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * A receiver's answer made safe to store in a PostgreSQL text column and show: at most the first
 * RESPONSE_SNIPPET_BYTES bytes, decoded as UTF-8 with U+FFFD for anything invalid (a binary or
 * gzip-encoded body, a character cut at the limit), every NUL and other control character except
 * tab and newline replaced by U+FFFD (PostgreSQL text cannot hold U+0000 at all, and an attempt row
 * that cannot be written would leave the delivery unrecorded), a CRLF kept as a newline, and the
 * result cut again on a character boundary so it never exceeds the byte limit. Null for an empty
 * answer. Every stored snippet goes through this.
 */
export function safeResponseSnippet(bytes: Uint8Array): string | null {
  const decoded = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, RESPONSE_SNIPPET_BYTES))
    .toString("utf8")
    .replace(/\r\n/g, "\n")
    .replace(UNSAFE_SNIPPET_CHARS, "\uFFFD");
  let text = decoded;
  // U+FFFD is 3 bytes where it may stand for 1: cut back to the limit, whole characters only.
  while (Buffer.byteLength(text, "utf8") > RESPONSE_SNIPPET_BYTES) {
    const over = Buffer.byteLength(text, "utf8") - RESPONSE_SNIPPET_BYTES;
    const chars = Array.from(text);
    text = chars.slice(0, Math.max(0, chars.length - Math.max(1, Math.ceil(over / 4)))).join("");
  }
  return text === "" ? null : text;
}

/** Resolves a host name to every address it has (the caller checks all of them). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A POST dropped because the runner is shutting down (its row is released, not recorded). */
export class ShutdownAbort extends Error {}

/** One exchange's answer as read: status, headers, and the body bytes kept. */
export interface PinnedResponse {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A body larger than a request's `maxBytes` with `overflow: "error"`. */
export class ResponseTooLarge extends Error {
  constructor() {
    super("response_too_large");
  }
}

export interface PinnedRequest {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** The most body bytes read; past it the rest is not read. */
  maxBytes: number;
  /**
   * Past `maxBytes`: `truncate` answers with the first `maxBytes` (a receiver's snippet);
   * `error` fails with ResponseTooLarge (a document that must be whole, e.g. JSON).
   */
  overflow: "truncate" | "error";
  signal?: AbortSignal | undefined;
  trustedCa?: string | undefined;
}

/**
 * One request, pinned to the addresses that were checked: the connection uses them instead of
 * resolving the name again (a DNS answer that changes between check and connect, rebinding,
 * cannot redirect us). Redirects are not followed (node:http never does): the caller sees the
 * 3xx. Shared by webhook deliveries (POST) and the EHR fetches of `@svc/ehr-gateway` (GET).
 */
export function requestPinned(
  url: URL,
  addresses: { address: string; family: number }[],
  request: PinnedRequest,
): Promise<PinnedResponse> {
  const { timeoutMs, signal, trustedCa, maxBytes, body } = request;
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else {
      const first = addresses[0] as { address: string; family: number };
      callback(null, first.address, first.family);
    }
  };
  const client = url.protocol === "https:" ? https : http;
  const headers =
    body === undefined
      ? request.headers
      : { ...request.headers, "Content-Length": String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      url,
      {
        method: request.method,
        headers,
        lookup: pinned,
        agent: false,
        ...(trustedCa && url.protocol === "https:" ? { ca: trustedCa } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        const finish = () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const whole = Buffer.concat(chunks);
          resolve({
            statusCode: response.statusCode ?? 0,
            headers: response.headers,
            body: whole.length > maxBytes ? whole.subarray(0, maxBytes) : whole,
          });
        };
        const fail = (error: Error) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(error);
        };
        const declared = Number(response.headers["content-length"]);
        if (request.overflow === "error" && Number.isFinite(declared) && declared > maxBytes) {
          response.destroy();
          fail(new ResponseTooLarge());
          return;
        }
        response.on("data", (chunk: Buffer) => {
          if (settled) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size <= maxBytes) return;
          // Enough read: stop reading the rest of a large body.
          response.destroy();
          if (request.overflow === "error") fail(new ResponseTooLarge());
          else finish();
        });
        response.on("end", finish);
        response.on("error", fail);
      },
    );
    const timer = setTimeout(() => outgoing.destroy(new Error("timeout")), timeoutMs);
    const onAbort = () => outgoing.destroy(new ShutdownAbort("shutdown"));
    signal?.addEventListener("abort", onAbort, { once: true });
    outgoing.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.on("close", () => signal?.removeEventListener("abort", onAbort));
    outgoing.end(body);
  });
}

/**
 * One webhook POST, pinned (requestPinned): the status and a safe snippet of at most the first
 * RESPONSE_SNIPPET_BYTES of the answer.
 */
export async function postPinned(
  url: URL,
  addresses: { address: string; family: number }[],
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; signal?: AbortSignal | undefined; trustedCa?: string | undefined },
): Promise<{ statusCode: number; snippet: string | null }> {
  const response = await requestPinned(url, addresses, {
    method: "POST",
    headers,
    body,
    maxBytes: RESPONSE_SNIPPET_BYTES,
    overflow: "truncate",
    ...options,
  });
  return { statusCode: response.statusCode, snippet: safeResponseSnippet(response.body) };
}

/** A short machine reason for a failed exchange; never the receiver's words. */
export function errorReason(error: unknown): string {
  if (error instanceof Error && error.message === "timeout") return "timeout";
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "ECONNREFUSED":
      return "connection_refused";
    case "ECONNRESET":
    case "EPIPE":
      return "connection_reset";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "dns_failure";
    case "ETIMEDOUT":
      return "timeout";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "unreachable";
    default:
      if (typeof code === "string" && (code.startsWith("ERR_TLS") || code.includes("CERT")))
        return "tls_error";
      return "network_error";
  }
}

/**
 * The addresses a POST to this endpoint may use now, or the reason there are none: the URL rules
 * first (no DNS lookup for a URL that is refused anyway), then every address the name has now
 * (decision 48, again at delivery: DNS rebinding).
 */
export async function checkedAddresses(
  endpoint: EndpointTarget,
  resolve: Resolver,
  allowLoopbackWebhooks: boolean,
): Promise<{ url: URL; addresses: { address: string; family: number }[] } | { refused: string }> {
  const policyInput = { mode: endpoint.mode, allowPrivate: endpoint.allowPrivate, allowLoopbackWebhooks };
  const policy = addressPolicyFor(policyInput);
  const checked = checkEndpointUrl(endpoint.url, policyInput);
  if (!checked.ok) return { refused: refusedUrlReason(endpoint.url, policy, endpoint) };
  const url = checked.url;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      return { refused: errorReason(error) };
    }
  }
  if (addresses.length === 0) return { refused: "dns_failure" };
  const refused = addresses.find((a) => !isAllowedAddress(a.address, policy));
  if (refused) return { refused: forbiddenReason(refused.address, endpoint) };
  return { url, addresses };
}

/**
 * `forbidden_address`, or `loopback_not_allowed` for loopback on a test-mode endpoint: the one
 * the operator's loopback setting decides, so the delivery log says why it stopped.
 */
function forbiddenReason(ip: string, endpoint: EndpointTarget): string {
  return endpoint.mode === "test" && !endpoint.allowPrivate && classifyAddress(ip) === "loopback"
    ? "loopback_not_allowed"
    : "forbidden_address";
}

/** Why a URL the rules refuse is refused: its literal address (or localhost), or the URL itself. */
function refusedUrlReason(
  raw: string,
  policy: ReturnType<typeof addressPolicyFor>,
  endpoint: EndpointTarget,
): string {
  let host: string;
  try {
    host = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return "invalid_url";
  }
  if (isIP(host)) return isAllowedAddress(host, policy) ? "invalid_url" : forbiddenReason(host, endpoint);
  return isLocalhostName(host) && !policy.allowLoopback && !policy.allowPrivate
    ? forbiddenReason("127.0.0.1", endpoint)
    : "invalid_url";
}
