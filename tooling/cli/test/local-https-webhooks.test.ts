import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "@svc/testkit";
import { useCompiledLauncher } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";

/**
 * The recipe in docs/webhooks.md ("Trying safety events on one machine") run as written: its
 * openssl commands make a local CA and a receiver certificate, its receiver runs with them, and
 * the compiled service, started with NODE_EXTRA_CA_CERTS naming that CA, delivers a signed MSE
 * safety event to the https receiver on localhost, which verifies it.
 */
const { root, launcher, cliEntry, dir, started } = useCompiledLauncher("svc-local-tls-");

/** The fenced blocks of the recipe's section, in order. */
function recipeBlocks(): { lang: string; code: string }[] {
  const doc = readFileSync(path.join(root, "docs/webhooks.md"), "utf8");
  const start = doc.indexOf("## Trying safety events on one machine");
  expect(start).toBeGreaterThan(-1);
  const section = doc.slice(start, doc.indexOf("\n## ", start + 3));
  return [...section.matchAll(/^( *)```(\w+)\n([\s\S]*?)^\1```$/gm)].map((m) => ({
    lang: m[2] as string,
    code: (m[3] as string)
      .split("\n")
      .map((line) => line.slice((m[1] as string).length))
      .join("\n"),
  }));
}

describe("local https receiver for MSE safety events (docs/webhooks.md recipe)", () => {
  it("the documented CA, certificate and receiver get a signed safety event from a service started with NODE_EXTRA_CA_CERTS", async () => {
    const blocks = recipeBlocks();
    const certificates = blocks.find((b) => b.lang === "sh" && b.code.includes("openssl"));
    const receiverCode = blocks.find((b) => b.lang === "js");
    expect(certificates).toBeDefined();
    expect(receiverCode).toBeDefined();

    // Step 1 as written (it makes and leaves .local-tls/ in the folder it runs in).
    const made = spawnSync("bash", ["-euo", "pipefail", "-c", certificates?.code as string], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(made.status, made.stderr).toBe(0);
    const tlsDir = path.join(dir, ".local-tls");
    mkdirSync(tlsDir, { recursive: true });

    // Step 2: the service, trusting the local CA.
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: "warn",
      SVC_DATA_DIR: path.join(dir, "data"),
      NODE_EXTRA_CA_CERTS: path.join(tlsDir, "ca.pem"),
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    await started(
      spawn(launcher.command, launcher.args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] }),
      /started in \d+ ms/,
      { timeoutMs: 60_000 },
    );

    // Step 3: organization, key and endpoint through the running server.
    const svc = (...args: string[]) => {
      const out = spawnSync(cliEntry.command, [...cliEntry.args, ...args, "--json"], {
        cwd: dir,
        env,
        encoding: "utf8",
      });
      expect(out.stderr).toBe("");
      return JSON.parse(out.stdout) as Record<string, string>;
    };
    const receiverPort = await freePort();
    const org = svc("orgs", "create", "--name", "Local clinic");
    const orgKey = svc(
      "keys",
      "create",
      "--org",
      org.id as string,
      "--kind",
      "organization",
      "--scopes",
      "mse:read,mse:write",
    );
    const endpoint = svc(
      "webhooks",
      "add",
      "--org",
      org.id as string,
      "--url",
      `https://localhost:${receiverPort}/hooks`,
      "--allow-private",
    );
    expect(endpoint.secret).toMatch(/^whsec_/);

    // Step 4: the documented receiver, saved where the recipe says.
    writeFileSync(path.join(tlsDir, "receiver.mjs"), receiverCode?.code as string);
    const receiverOutput = await started(
      spawn(process.execPath, [path.join(tlsDir, "receiver.mjs")], {
        cwd: dir,
        env: { ...process.env, WEBHOOK_SECRET: endpoint.secret, PORT: String(receiverPort) },
        stdio: ["ignore", "pipe", "pipe"],
      }),
      /receiver on https:\/\/localhost/,
      { timeoutMs: 60_000 },
    );

    // This process does not trust the local CA: the certificate is refused without it.
    const untrusted = await fetch(`https://localhost:${receiverPort}/hooks`, { method: "POST" }).catch(
      (error: Error) => error,
    );
    expect(untrusted).toBeInstanceOf(Error);

    // Step 5: a positive risk screen, with the body the recipe shows.
    const curl = blocks.find((b) => b.lang === "sh" && b.code.includes("curl")) as { code: string };
    const body = /-d '([^']+)'/.exec(curl.code)?.[1] as string;
    const saved = await fetch(`http://127.0.0.1:${port}/v1/mse/visit-1`, {
      method: "POST",
      headers: { authorization: `Bearer ${orgKey.key}`, "content-type": "application/json" },
      body,
    });
    const answer = (await saved.json()) as { risk: { safetyEventId: string | null } };
    expect(saved.status).toBe(200);
    expect(answer.risk.safetyEventId).toMatch(/^sev_/);

    const deadline = Date.now() + 20_000;
    while (!/verified /.test(receiverOutput()) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(receiverOutput()).toContain(`verified mse.risk_flagged ${answer.risk.safetyEventId}`);
    expect(receiverOutput()).not.toContain("refused");
  }, 120_000);
});
