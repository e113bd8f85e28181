/**
 * Path and query of an absolute request URL as sent (`http://host:port/path?query#hash`), before
 * any decoding and without parsing the whole URL: the hygiene screen and the combined listener's
 * routing read it on every request. A URL without a path has the path `/`.
 */
export function splitRequestUrl(url: string): { path: string; query: string } {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return { path: "/", query: "" };
  const hash = url.indexOf("#", start);
  const end = hash === -1 ? url.length : hash;
  const q = url.indexOf("?", start);
  if (q === -1 || q > end) return { path: url.slice(start, end), query: "" };
  return { path: url.slice(start, q), query: url.slice(q + 1, end) };
}
