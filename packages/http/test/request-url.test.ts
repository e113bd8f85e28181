import { describe, expect, it } from "vitest";
import { splitRequestUrl } from "../src/request-url.js";

describe("splitRequestUrl (the hygiene screen's and the combined listener's view of a URL)", () => {
  it.each([
    "http://127.0.0.1:3000/v1/mse/records?limit=5",
    "https://api.example.com/v1/mse",
    "http://localhost/dashboard/keys#top",
    "http://localhost/",
    "http://localhost/v1/ping?next=/v1/mse",
    "http://localhost/v1/labs/orders/labord_%00x?cursor=a%20b#frag?x",
  ])("%s: the path and query as sent, like URL's", (url) => {
    const parsed = new URL(url);
    expect(splitRequestUrl(url)).toEqual({ path: parsed.pathname, query: parsed.search.slice(1) });
  });

  it("gives a URL without a path the path /", () => {
    expect(splitRequestUrl("http://localhost")).toEqual({ path: "/", query: "" });
  });
});
