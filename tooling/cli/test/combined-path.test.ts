import { describe, expect, it } from "vitest";
import { pathOf } from "../src/combined.js";

describe("pathOf (which app of the combined listener answers)", () => {
  it.each([
    ["http://127.0.0.1:3000/v1/mse/records?limit=5", "/v1/mse/records"],
    ["https://api.example.com/v1/mse", "/v1/mse"],
    ["http://localhost/dashboard/keys#top", "/dashboard/keys"],
    ["http://localhost/", "/"],
    ["http://localhost", "/"],
    ["http://localhost/v1/ping?next=/v1/mse", "/v1/ping"],
  ])("%s -> %s", (url, path) => {
    expect(pathOf(url)).toBe(path);
    expect(pathOf(url)).toBe(new URL(url).pathname);
  });
});
