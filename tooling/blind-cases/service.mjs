// Starts the built service on a free loopback port with embedded PGlite in a throwaway directory,
// and sets up what the blind runner needs: an enterprise-plan account and secret test key (the
// sandbox plan's 100 requests a day would not cover a run), and a CDS client with its own ES384 key.
import { execFile, spawn } from "node:child_process";
import { sign as cryptoSign, generateKeyPairSync, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export async function startService(root) {
  const start = join(root, "tooling/cli/dist/start.js");
  const cli = join(root, "tooling/cli/dist/main.js");
  if (!existsSync(start) || !existsSync(cli))
    throw new Error("The service is not built: run `pnpm build` first.");
  const dir = mkdtempSync(join(tmpdir(), "blind-cases-"));
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    SVC_DATA_DIR: join(dir, "data"),
    LOG_LEVEL: "warn",
  };
  for (const k of [
    "DATABASE_URL",
    "REDIS_URL",
    "MODEL_BASE_URL",
    "MODEL_NAME",
    "MODEL_API_KEY",
    "PUBLIC_BASE_URL",
  ])
    delete env[k];
  const child = spawn(process.execPath, ["--enable-source-maps", start], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    out += d;
  });
  await new Promise((resolve, reject) => {
    const t = setTimeout(
      () => reject(new Error(`service did not start in 120 s:\n${out.slice(-2000)}`)),
      120_000,
    );
    const check = setInterval(() => {
      if (/Listening on /.test(out)) {
        clearInterval(check);
        clearTimeout(t);
        resolve();
      }
    }, 200);
    child.once("exit", (code) => {
      clearInterval(check);
      clearTimeout(t);
      reject(new Error(`service exited ${code}:\n${out.slice(-2000)}`));
    });
  });
  const base = `http://localhost:${port}`;
  const svc = async (...args) =>
    JSON.parse((await run(process.execPath, [cli, ...args, "--json"], { cwd: root, env })).stdout);
  const account = await svc("accounts", "create", "--name", "blind-cases", "--plan", "enterprise");
  const key = (await svc("keys", "create", "--account", account.id, "--kind", "secret_test")).key;

  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-384" });
  const kid = "blind-ehr-1";
  const iss = "https://ehr.blind-cases.test";
  const jwksFile = join(dir, "jwks.json");
  writeFileSync(
    jwksFile,
    JSON.stringify({ keys: [{ ...publicKey.export({ format: "jwk" }), kid, alg: "ES384", use: "sig" }] }),
  );
  const client = await svc("cds-clients", "add", "--account", account.id, "--iss", iss, "--jwks", jwksFile);
  const cdsBase = client.cdsHooksBaseUrl;
  const b64 = (x) => Buffer.from(typeof x === "string" ? x : JSON.stringify(x)).toString("base64url");
  const jwt = (aud) => {
    const now = Math.floor(Date.now() / 1000);
    const input = `${b64({ alg: "ES384", typ: "JWT", kid })}.${b64({ iss, aud, iat: now, exp: now + 120, jti: randomUUID() })}`;
    const sig = cryptoSign("sha384", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" });
    return `${input}.${sig.toString("base64url")}`;
  };

  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => {
        const t = setTimeout(() => {
          child.kill("SIGKILL");
          r();
        }, 15_000);
        child.once("exit", () => {
          clearTimeout(t);
          r();
        });
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { base, key, cdsBase, jwt, stop };
}
