import { checkOrigins, DataDirLockedError } from "@svc/db";
import { originAllowed } from "../auth.js";
import { EnvError, parseEnv, type ServiceEnv } from "./env.js";

/** Connection failures worth one plain line instead of a stack trace. */
const UNREACHABLE_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ETIMEDOUT: "timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  CONNECT_TIMEOUT: "timed out",
  "28P01": "password authentication failed",
  "28000": "authentication refused",
  "3D000": "database does not exist",
};

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  // Node reports a refused dual-stack connect as an AggregateError of per-address errors.
  const inner = (error as { errors?: unknown[] }).errors?.[0];
  return inner ? errorCode(inner) : undefined;
}

/** host:port of a database URL, never its user or password. */
function databaseTarget(url: string | undefined): string {
  if (!url) return "the embedded database";
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
  } catch {
    return "DATABASE_URL";
  }
}

/** One line saying why a start failed, without a stack trace or a secret. */
export function describeStartupFailure(error: unknown, env?: Pick<ServiceEnv, "DATABASE_URL">): string {
  if (error instanceof EnvError || error instanceof DataDirLockedError) return error.message;
  const code = errorCode(error);
  const reason = code ? UNREACHABLE_CODES[code] : undefined;
  if (reason)
    return `Cannot start: the database at ${databaseTarget(env?.DATABASE_URL)} is not reachable (${reason}). Check DATABASE_URL and that PostgreSQL is running.`;
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `Cannot start: ${message}`;
}

/** Print why the start failed on stderr and exit 1. */
export function exitOnStartupFailure(error: unknown, env?: Pick<ServiceEnv, "DATABASE_URL">): never {
  process.stderr.write(`${describeStartupFailure(error, env)}\n`);
  process.exit(1);
}

/** The validated environment, or every problem with it on stderr and exit 1. */
export function loadEnvOrExit(): ServiceEnv {
  try {
    return parseEnv();
  } catch (error) {
    return exitOnStartupFailure(error);
  }
}

/** Milliseconds since this process started (the "started in" of every listening line). */
export function msSinceProcessStart(): number {
  return Math.round(process.uptime() * 1000);
}

/** The loopback origins a person types for this machine, any port. */
const LOOPBACK_ORIGINS = ["http://localhost:*", "http://127.0.0.1:*"];

/**
 * The allow-list of the sandbox publishable key made at first start: the loopback origins and
 * the origin of PUBLIC_BASE_URL, which every printed link uses, so a page opened from a printed
 * link (/capture-demo) may use the printed key. An origin the allow-list cannot hold (an IPv6
 * literal) is left out; `pnpm svc keys create --kind publishable --origins ...` adds others.
 */
export function sandboxPublishableOrigins(publicBaseUrl: string): string[] {
  const origins = [...LOOPBACK_ORIGINS];
  let origin: string;
  try {
    origin = new URL(publicBaseUrl).origin;
  } catch {
    return origins;
  }
  if (originAllowed(origin, origins)) return origins;
  try {
    checkOrigins([origin]);
  } catch {
    return origins;
  }
  return [...origins, origin];
}

const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** `host:port` with an IPv6 literal in brackets. */
function hostPort(hostname: string, port: number): string {
  return hostname.includes(":") && !hostname.startsWith("[")
    ? `[${hostname}]:${port}`
    : `${hostname}:${port}`;
}

/** Who can reach a socket bound to `hostname`. */
function reach(hostname: string): string {
  if (WILDCARD_HOSTS.has(hostname))
    return `${hostname === "0.0.0.0" ? "every IPv4 interface" : "every interface"}, reachable from other machines too`;
  return LOOPBACK_HOSTS.has(hostname) ? "this machine only" : "this address only";
}

/**
 * A scale-out app's one start line (`<name> listening on <scheme>://<bound address>:<port> (...)
 * ...; started in N ms`): the address the socket is bound to, never a loopback stand-in for it.
 */
export function standaloneListeningLine(input: {
  name: string;
  hostname: string;
  port: number;
  tls: boolean;
  details: string;
  startedInMs: number;
}): string {
  const url = `${input.tls ? "https" : "http"}://${hostPort(input.hostname, input.port)}`;
  return `${input.name} listening on ${url} (${reach(input.hostname)}; ${input.details}); started in ${input.startedInMs} ms`;
}

/**
 * The start banner's first two lines: where the socket really listens (the address it is bound
 * to, and whether other machines can reach it), then the URL to open. The URL is PUBLIC_BASE_URL
 * when set (every printed link uses it); otherwise localhost for a wildcard or loopback address,
 * else the bound address itself.
 */
export function listeningLines(input: {
  hostname: string;
  port: number;
  tls: boolean;
  publicBaseUrl?: string;
}): [string, string] {
  const { hostname, port } = input;
  const bound = hostPort(hostname, port);
  const where = `${reach(hostname)}${WILDCARD_HOSTS.has(hostname) ? " (HOST=127.0.0.1 keeps it to this one)" : ""}`;
  const scheme = input.tls ? "https" : "http";
  const local = WILDCARD_HOSTS.has(hostname) || LOOPBACK_HOSTS.has(hostname) ? "localhost" : hostname;
  const open = (input.publicBaseUrl ?? `${scheme}://${hostPort(local, port)}`).replace(/\/+$/, "");
  return [
    `Listening on ${bound}: ${where}`,
    `  open ${open} (reference ${open}/docs, capture demo ${open}/capture-demo, dashboard ${open}/dashboard)`,
  ];
}
