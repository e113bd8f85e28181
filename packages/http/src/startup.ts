import { DataDirLockedError } from "@svc/db";
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
