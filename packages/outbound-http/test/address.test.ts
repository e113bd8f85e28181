import { describe, expect, it } from "vitest";
import { addressPolicyFor, checkEndpointUrl, classifyAddress, isAllowedAddress } from "../src/index.js";

/**
 * The address rules of decision 48, which webhook delivery and the EHR gateway's fetches both
 * follow: the classes of addresses, the policy of an endpoint and the checks of its URL.
 */
describe("addresses (decision 48)", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["169.254.169.254", "metadata"],
    ["169.254.10.10", "link_local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["8.8.8.8", "public"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:169.254.169.254", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["fd12:3456::1", "private"],
    ["fe80::1", "link_local"],
    ["ff02::1", "multicast"],
    ["2606:4700::1111", "public"],
    ["not-an-ip", "invalid"],
  ])("%s is %s", (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });
  it("private ranges only with allowPrivate, metadata never", () => {
    expect(isAllowedAddress("127.0.0.1", { allowPrivate: false })).toBe(false);
    expect(isAllowedAddress("127.0.0.1", { allowPrivate: true })).toBe(true);
    expect(isAllowedAddress("169.254.169.254", { allowPrivate: true })).toBe(false);
    expect(isAllowedAddress("93.184.216.34", { allowPrivate: false })).toBe(true);
  });
  it("URL checks: https for live, no credentials, literal private addresses refused", () => {
    expect(checkEndpointUrl("http://hooks.example.com/x", { mode: "live", allowPrivate: false }).ok).toBe(
      false,
    );
    expect(checkEndpointUrl("https://hooks.example.com/x", { mode: "live", allowPrivate: false }).ok).toBe(
      true,
    );
    expect(checkEndpointUrl("http://hooks.example.com/x", { mode: "test", allowPrivate: false }).ok).toBe(
      true,
    );
    expect(checkEndpointUrl("https://u:p@hooks.example.com", { mode: "live", allowPrivate: false }).ok).toBe(
      false,
    );
    expect(checkEndpointUrl("https://10.0.0.1/x", { mode: "live", allowPrivate: false }).ok).toBe(false);
    expect(checkEndpointUrl("https://[::1]/x", { mode: "live", allowPrivate: false }).ok).toBe(false);
    expect(checkEndpointUrl("https://169.254.169.254/", { mode: "live", allowPrivate: false }).ok).toBe(
      false,
    );
    expect(checkEndpointUrl("http://127.0.0.1:9000/x", { mode: "test", allowPrivate: true }).ok).toBe(true);
    expect(checkEndpointUrl("ftp://example.com", { mode: "test", allowPrivate: false }).ok).toBe(false);
    expect(checkEndpointUrl("https://localhost/x", { mode: "live", allowPrivate: false }).ok).toBe(false);
  });
});

describe("address policy per endpoint", () => {
  it("test-mode endpoints may use loopback only where the operator allows it; allowPrivate opens private ranges; metadata never", () => {
    const test = addressPolicyFor({ mode: "test", allowPrivate: false, allowLoopbackWebhooks: true });
    const hosted = addressPolicyFor({ mode: "test", allowPrivate: false, allowLoopbackWebhooks: false });
    const unset = addressPolicyFor({ mode: "test", allowPrivate: false });
    const live = addressPolicyFor({ mode: "live", allowPrivate: false, allowLoopbackWebhooks: true });
    const livePrivate = addressPolicyFor({ mode: "live", allowPrivate: true });
    expect(isAllowedAddress("127.0.0.1", test)).toBe(true);
    expect(isAllowedAddress("::1", test)).toBe(true);
    expect(isAllowedAddress("10.0.0.1", test)).toBe(false);
    // A hosted deployment (or a caller that does not say): a tenant's loopback is refused.
    expect(isAllowedAddress("127.0.0.1", hosted)).toBe(false);
    expect(isAllowedAddress("::ffff:127.0.0.1", hosted)).toBe(false);
    expect(isAllowedAddress("::1", unset)).toBe(false);
    expect(isAllowedAddress("127.0.0.1", live)).toBe(false);
    expect(isAllowedAddress("10.0.0.1", livePrivate)).toBe(true);
    expect(isAllowedAddress("127.0.0.1", livePrivate)).toBe(true);
    expect(isAllowedAddress("fd00:ec2::254", livePrivate)).toBe(false);
    expect(isAllowedAddress("::ffff:169.254.169.254", livePrivate)).toBe(false);
    expect(isAllowedAddress("0.0.0.0", livePrivate)).toBe(false);
  });
  it("URL checks: test mode accepts http://127.0.0.1 and localhost where loopback is allowed; live needs --allow-private for them", () => {
    const local = { mode: "test", allowPrivate: false, allowLoopbackWebhooks: true } as const;
    expect(checkEndpointUrl("http://127.0.0.1:9000/h", local).ok).toBe(true);
    expect(checkEndpointUrl("http://localhost:9000/h", local).ok).toBe(true);
    expect(checkEndpointUrl("http://10.1.2.3/h", local).ok).toBe(false);
    expect(checkEndpointUrl("https://127.0.0.1/h", { mode: "live", allowPrivate: false }).ok).toBe(false);
    expect(checkEndpointUrl("https://127.0.0.1/h", { mode: "live", allowPrivate: true }).ok).toBe(true);
    expect(checkEndpointUrl("not a url", local)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("not valid"),
    });
    expect(checkEndpointUrl("https://[fe80::1]/", { mode: "live", allowPrivate: false }).ok).toBe(false);
    expect(checkEndpointUrl("https://[::ffff:10.0.0.1]/", { mode: "live", allowPrivate: false }).ok).toBe(
      false,
    );
  });
  it("where the operator does not allow loopback, a test-mode loopback URL is refused with the reason", () => {
    const hosted = { mode: "test", allowPrivate: false, allowLoopbackWebhooks: false } as const;
    for (const url of [
      "http://127.0.0.1:9000/h",
      "http://127.8.9.10/h",
      "http://[::1]:9000/h",
      "http://[::ffff:127.0.0.1]/h",
      "http://localhost:9000/h",
      "http://api.localhost/h",
      "http://LOCALHOST./h",
    ]) {
      const checked = checkEndpointUrl(url, hosted);
      expect(checked.ok, url).toBe(false);
      if (!checked.ok) {
        expect(checked.reason).toContain("loopback");
        expect(checked.reason).toContain("ALLOW_LOOPBACK_WEBHOOKS");
      }
    }
    // The operator's own endpoint with --allow-private is unchanged.
    expect(checkEndpointUrl("http://127.0.0.1:9000/h", { ...hosted, allowPrivate: true }).ok).toBe(true);
    // A live endpoint's refusal says what a live endpoint needs, not the loopback setting.
    const live = checkEndpointUrl("https://127.0.0.1/h", { mode: "live", allowPrivate: false });
    expect(live.ok === false && live.reason).toContain(
      "not public (loopback): live-mode endpoints need a public address",
    );
  });
});
