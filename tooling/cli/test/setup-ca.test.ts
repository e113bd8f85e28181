import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { writeSelfSignedCert } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Behind a company TLS proxy the machine's certificate store holds the proxy's authority; Node's
 * own list does not. After `. tooling/scripts/ensure-node.sh`, Node and npm (which pnpm's `view`
 * and the Node bootstrap use) trust the machine's store (decision 164). The store here is
 * OpenSSL's `SSL_CERT_FILE` naming a self-signed loopback certificate, standing in for the proxy's;
 * the "registry" is a loopback https server answering one package document.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));
const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), "svc-ca-"));
let server: https.Server;
let base: string;

beforeAll(async () => {
  const { certFile, keyFile } = writeSelfSignedCert(dir);
  const { readFileSync } = await import("node:fs");
  server = https.createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        name: "svc-probe",
        "dist-tags": { latest: "1.0.0" },
        versions: { "1.0.0": { name: "svc-probe", version: "1.0.0", dist: { tarball: "", shasum: "" } } },
        time: {},
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** `command` in a shell that sourced ensure-node.sh, the machine's store being our certificate. */
async function afterEnsureNode(command: string): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    SSL_CERT_FILE: path.join(dir, "cert.pem"),
    npm_config_cache: path.join(dir, "npm-cache"),
  };
  const { stdout } = await run("bash", ["-c", `. tooling/scripts/ensure-node.sh 2>/dev/null; ${command}`], {
    cwd: root,
    env,
    encoding: "utf8",
    timeout: 120_000,
    killSignal: "SIGKILL",
  });
  return stdout.trim();
}

describe("the machine's certificate authorities (decision 164)", () => {
  it("Node trusts them after ensure-node.sh", async () => {
    const answer = await afterEnsureNode(
      `node -e 'fetch("${base}/svc-probe").then((r) => r.json()).then((j) => console.log(j.name), (e) => console.log("refused", e.cause?.code))'`,
    );
    expect(answer).toBe("svc-probe");
  }, 150_000);

  it("npm trusts them after ensure-node.sh (the registry client pnpm and the Node bootstrap use)", async () => {
    const answer = await afterEnsureNode(
      `npm view svc-probe version --registry ${base}/ --fetch-retries 0 --fetch-timeout 20000 2>&1 | tail -1`,
    );
    expect(answer).toBe("1.0.0");
  }, 150_000);
});
