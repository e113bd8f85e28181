import { describe, expect, it } from "vitest";
import { checkedAddresses, errorReason, type Resolver } from "../src/index.js";

// `safeResponseSnippet` is tested with the delivery's hostile answers (packages/delivery), which
// check the same invariant on the stored attempt rows.

describe("checkedAddresses", () => {
  const live = { url: "https://hooks.example.org/in", mode: "live" as const, allowPrivate: false };
  const answers =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("gives every address of a public name, to pin the connection to", async () => {
    const checked = await checkedAddresses(live, answers("93.184.216.34", "2606:2800:220:1::1"), false);
    expect(checked).toMatchObject({
      addresses: [{ address: "93.184.216.34" }, { address: "2606:2800:220:1::1" }],
    });
  });

  it("refuses a name with any refused address, and says why", async () => {
    expect(await checkedAddresses(live, answers("93.184.216.34", "10.0.0.7"), false)).toEqual({
      refused: "forbidden_address",
    });
    const test = { ...live, url: "http://hooks.example.org/in", mode: "test" as const };
    expect(await checkedAddresses(test, answers("127.0.0.1"), false)).toEqual({
      refused: "loopback_not_allowed",
    });
    expect(await checkedAddresses(test, answers("127.0.0.1"), true)).toMatchObject({
      addresses: [{ address: "127.0.0.1" }],
    });
    expect(await checkedAddresses(live, answers(), false)).toEqual({ refused: "dns_failure" });
  });

  it("refuses a URL the rules refuse without looking the name up", async () => {
    const never: Resolver = async () => {
      throw new Error("looked up");
    };
    expect(await checkedAddresses({ ...live, url: "http://hooks.example.org/in" }, never, false)).toEqual({
      refused: "invalid_url",
    });
    expect(await checkedAddresses({ ...live, url: "https://169.254.169.254/" }, never, false)).toEqual({
      refused: "forbidden_address",
    });
  });
});

describe("errorReason", () => {
  it("names the failure by its code, never by the other side's words", () => {
    const coded = (code: string) => Object.assign(new Error("the receiver said something"), { code });
    expect(errorReason(new Error("timeout"))).toBe("timeout");
    expect(errorReason(coded("ECONNREFUSED"))).toBe("connection_refused");
    expect(errorReason(coded("EAI_AGAIN"))).toBe("dns_failure");
    expect(errorReason(coded("ERR_TLS_CERT_ALTNAME_INVALID"))).toBe("tls_error");
    expect(errorReason(coded("EWHATEVER"))).toBe("network_error");
  });
});
