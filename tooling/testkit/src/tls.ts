import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A one-day self-signed certificate for loopback (127.0.0.1 and localhost), made by openssl into
 * `dir`: for HTTPS servers under test and live-mode webhook receivers (trust it as `trustedCa`).
 */
export function writeSelfSignedCert(dir: string): { certFile: string; keyFile: string } {
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    // Bounded like every child the tooling runs (decision 164).
    { stdio: "ignore", timeout: 30_000, killSignal: "SIGKILL" },
  );
  return { certFile, keyFile };
}

/** The same certificate as PEM strings, its files removed. */
export function selfSignedLoopbackCert(): { cert: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-cert-"));
  try {
    const { certFile, keyFile } = writeSelfSignedCert(dir);
    return { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
