import { createHash, randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type DbHandle, hashesEqual } from "@svc/db";
import type { Logger } from "@svc/http";
import { type ParsedArgs, parseArgs } from "./args.js";
import { refusalMessage } from "./command.js";
import { runCommand } from "./commands/index.js";

/**
 * The operator endpoint of the embedded server (decision 27). PGlite allows one process, so while
 * `pnpm start` holds the data dir the CLI cannot open it; instead it sends its arguments here and
 * the server runs the very same command on its own database handle. The endpoint listens on
 * loopback only, on a port the OS picks, and asks for its own credential: a random token written
 * with the port to `<data dir>/operator.json`, readable by the owner alone (0600). Anyone who can
 * read that file can already read the database files beside it.
 */
const OPERATOR_FILE = "operator.json";
const MAX_BODY_BYTES = 64 * 1024;

interface OperatorFile {
  url: string;
  token: string;
  pid: number;
}

export interface OperatorEndpoint {
  url: string;
  close(): Promise<void>;
}

const digest = (value: string) => createHash("sha256").update(value).digest("hex");

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function reply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The argv the CLI sent, or null when the body is not `{ argv: string[] }`. */
function parseCommandBody(raw: string | null): ParsedArgs | null {
  if (raw === null) return null;
  try {
    const body = JSON.parse(raw) as { argv?: unknown };
    if (!Array.isArray(body.argv) || !body.argv.every((a) => typeof a === "string")) return null;
    return parseArgs(body.argv as string[]);
  } catch {
    return null;
  }
}

export async function startOperatorEndpoint(options: {
  dataDir: string;
  handle: DbHandle;
  logger: Logger;
}): Promise<OperatorEndpoint> {
  const token = randomBytes(32).toString("base64url");
  const expected = digest(`Bearer ${token}`);
  const server = createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/command") return reply(res, 404, { error: "Not found." });
    if (!hashesEqual(digest(req.headers.authorization ?? ""), expected))
      return reply(res, 401, { error: "Missing or wrong operator token." });
    const args = parseCommandBody(await readBody(req).catch(() => null));
    if (!args) return reply(res, 400, { error: "Send { argv: string[] } of at most 64 KB." });
    const command = args.positionals.slice(0, 2).join(" ");
    try {
      const result = await runCommand(args, options.handle);
      options.logger.info({ command }, "operator command run through the server");
      reply(res, 200, { result });
    } catch (error) {
      options.logger.warn({ command, errName: (error as Error).name }, "operator command refused");
      reply(res, 400, { error: refusalMessage(error) });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const file = path.join(options.dataDir, OPERATOR_FILE);
  rmSync(file, { force: true }); // a stale file of a dead server; we hold the data-dir lock
  writeFileSync(file, JSON.stringify({ url, token, pid: process.pid } satisfies OperatorFile), {
    mode: 0o600,
    flag: "wx",
  });
  return {
    url,
    async close() {
      rmSync(file, { force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Absolute paths for `--*-file` flags: the server reads them from its own working directory. */
function withAbsoluteFiles(argv: string[]): string[] {
  const out = [...argv];
  for (let i = 0; i < out.length; i++) {
    const arg = out[i] as string;
    const eq = arg.indexOf("=");
    if (arg.startsWith("--") && eq > 0 && arg.slice(0, eq).endsWith("-file"))
      out[i] = `${arg.slice(0, eq)}=${path.resolve(arg.slice(eq + 1))}`;
    else if (arg.startsWith("--") && arg.endsWith("-file") && out[i + 1] && !out[i + 1]?.startsWith("--")) {
      out[i + 1] = path.resolve(out[i + 1] as string);
      i++;
    }
  }
  return out;
}

export type OperatorReply = { ok: true; result: Record<string, unknown> } | { ok: false; error: string };

/**
 * Run a command through the embedded server holding `dataDir`. Resolves null when that server
 * offers no operator endpoint (none running, or one from before this existed).
 */
export async function runThroughServer(dataDir: string, argv: string[]): Promise<OperatorReply | null> {
  let target: OperatorFile;
  try {
    target = JSON.parse(readFileSync(path.join(dataDir, OPERATOR_FILE), "utf8")) as OperatorFile;
  } catch {
    return null;
  }
  const body = JSON.stringify({ argv: withAbsoluteFiles(argv) });
  return new Promise((resolve) => {
    const req = request(
      `${target.url}/command`,
      {
        method: "POST",
        headers: {
          Authorization: `Bearer ${target.token}`,
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
        },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
              result?: Record<string, unknown>;
              error?: string;
            };
            if (res.statusCode === 200 && parsed.result) resolve({ ok: true, result: parsed.result });
            else resolve({ ok: false, error: parsed.error ?? `The server answered ${res.statusCode}.` });
          } catch {
            resolve({ ok: false, error: `The server answered ${res.statusCode} without a reply body.` });
          }
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve(null));
    req.end(body);
  });
}
