import { listeningLines, sandboxPublishableOrigins, standaloneListeningLine } from "@svc/http/runtime";
import { describe, expect, it } from "vitest";
import { originAllowed } from "../src/auth.js";

describe("start banner: where the socket listens, and the URL to open", () => {
  it("a wildcard bind says every interface and gives localhost (or PUBLIC_BASE_URL) to open", () => {
    expect(listeningLines({ hostname: "0.0.0.0", port: 3000, tls: false })).toEqual([
      "Listening on 0.0.0.0:3000: every IPv4 interface, reachable from other machines too (HOST=127.0.0.1 keeps it to this one)",
      "  open http://localhost:3000 (reference http://localhost:3000/docs, capture demo http://localhost:3000/capture-demo, dashboard http://localhost:3000/dashboard)",
    ]);
    const [bound, open] = listeningLines({
      hostname: "::",
      port: 8443,
      tls: true,
      publicBaseUrl: "https://api.example.com/",
    });
    expect(bound).toBe(
      "Listening on [::]:8443: every interface, reachable from other machines too (HOST=127.0.0.1 keeps it to this one)",
    );
    expect(open).toMatch(
      /^ {2}open https:\/\/api\.example\.com \(reference https:\/\/api\.example\.com\/docs,/,
    );
  });

  it("a loopback or specific bind names that address", () => {
    expect(listeningLines({ hostname: "127.0.0.1", port: 3000, tls: false })[0]).toBe(
      "Listening on 127.0.0.1:3000: this machine only",
    );
    expect(listeningLines({ hostname: "::1", port: 3000, tls: false })[0]).toBe(
      "Listening on [::1]:3000: this machine only",
    );
    const [bound, open] = listeningLines({ hostname: "10.0.0.5", port: 3000, tls: true });
    expect(bound).toBe("Listening on 10.0.0.5:3000: this address only");
    expect(open).toMatch(/^ {2}open https:\/\/10\.0\.0\.5:3000 /);
  });
});

describe("scale-out apps' start line names the bound address", () => {
  it("0.0.0.0 is printed as bound, with who can reach it, in the line the launchers parse", () => {
    const line = standaloneListeningLine({
      name: "intelligence-api",
      hostname: "0.0.0.0",
      port: 3000,
      tls: false,
      details: "database: postgres; rate limits in Redis",
      startedInMs: 812,
    });
    expect(line).toBe(
      "intelligence-api listening on http://0.0.0.0:3000 (every IPv4 interface, reachable from other machines too; database: postgres; rate limits in Redis); started in 812 ms",
    );
    expect(/listening on https?:\/\/[^:\s]+:(\d+).*started in \d+ ms/.exec(line)?.[1]).toBe("3000");
  });
});

describe("the first start's publishable key allows the printed links' origin", () => {
  it("holds localhost and 127.0.0.1 on any port and PUBLIC_BASE_URL's origin", () => {
    const defaults = sandboxPublishableOrigins("http://localhost:3000");
    expect(defaults).toEqual(["http://localhost:*", "http://127.0.0.1:*"]);
    expect(originAllowed("http://127.0.0.1:3000", defaults)).toBe(true);
    const hosted = sandboxPublishableOrigins("https://api.example.com:8443/base");
    expect(hosted).toEqual(["http://localhost:*", "http://127.0.0.1:*", "https://api.example.com:8443"]);
    expect(originAllowed("https://api.example.com:8443", hosted)).toBe(true);
    expect(sandboxPublishableOrigins("https://localhost:3000")).toContain("https://localhost:3000");
    // An origin an allow-list cannot hold (IPv6 literal) is left out rather than failing the start.
    expect(sandboxPublishableOrigins("http://[::1]:3000")).toEqual([
      "http://localhost:*",
      "http://127.0.0.1:*",
    ]);
  });
});
