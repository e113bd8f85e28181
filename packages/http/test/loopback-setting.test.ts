import { describe, expect, it } from "vitest";
import { EnvError, loopbackWebhooksAllowed, parseEnv } from "../src/runtime/env.js";

const DATABASE_URL = "postgres://svc:svc@db.internal:5432/svc";

describe("ALLOW_LOOPBACK_WEBHOOKS", () => {
  it("unset: on for the embedded database, off with DATABASE_URL (a hosted service)", () => {
    expect(loopbackWebhooksAllowed(parseEnv({}))).toBe(true);
    expect(loopbackWebhooksAllowed(parseEnv({ DATABASE_URL }))).toBe(false);
    expect(loopbackWebhooksAllowed(parseEnv({ DATABASE_URL, ALLOW_LOOPBACK_WEBHOOKS: "" }))).toBe(false);
  });
  it("set, it decides either way", () => {
    expect(loopbackWebhooksAllowed(parseEnv({ DATABASE_URL, ALLOW_LOOPBACK_WEBHOOKS: "true" }))).toBe(true);
    expect(loopbackWebhooksAllowed(parseEnv({ ALLOW_LOOPBACK_WEBHOOKS: "false" }))).toBe(false);
  });
  it("anything but true or false is a configuration problem", () => {
    expect(() => parseEnv({ ALLOW_LOOPBACK_WEBHOOKS: "yes" })).toThrow(EnvError);
    expect(() => parseEnv({ ALLOW_LOOPBACK_WEBHOOKS: "yes" })).toThrow(
      /ALLOW_LOOPBACK_WEBHOOKS: must be true or false/,
    );
  });
});
