import { isIP } from "node:net";

/**
 * Where a webhook may be delivered (decision 48): never to loopback, private, link-local, metadata
 * or other non-public addresses, unless the endpoint is allowed them (operator's `--allow-private`;
 * loopback for a test-mode endpoint where the operator allows loopback webhooks). Pure checks: the
 * caller resolves names and passes addresses in, at registration and again at each delivery (DNS
 * rebinding).
 */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link_local"
  | "metadata"
  | "unspecified"
  | "multicast"
  | "reserved"
  | "invalid";

function ipv4Class(ip: string): AddressClass {
  const parts = ip.split(".").map(Number);
  const [a, b] = parts as [number, number, number, number];
  if (ip === "169.254.169.254" || ip === "100.100.100.200") return "metadata";
  if (a === 0) return "unspecified";
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "private"; // carrier-grade NAT
  if (a === 169 && b === 254) return "link_local";
  if (a >= 224 && a <= 239) return "multicast";
  if (a >= 240) return "reserved";
  if (a === 192 && b === 0 && parts[2] === 0) return "reserved"; // IETF protocol assignments
  if ((a === 192 && b === 0 && parts[2] === 2) || (a === 198 && b === 51) || (a === 203 && b === 0))
    return "reserved"; // documentation ranges
  if (a === 198 && (b === 18 || b === 19)) return "reserved"; // benchmarking
  return "public";
}

/** Expand an IPv6 address to eight 16-bit groups. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  const maybeV4 = text.slice(lastColon + 1);
  if (maybeV4.includes(".")) {
    if (isIP(maybeV4) !== 4) return null;
    const [p, q, r, s] = maybeV4.split(".").map(Number) as [number, number, number, number];
    tail = [(p << 8) | q, (r << 8) | s];
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const head = parse(halves[0] as string);
  const rest = halves.length === 2 ? parse(halves[1] as string) : [];
  const fill = 8 - head.length - rest.length;
  const groups = halves.length === 2 ? [...head, ...Array(Math.max(0, fill)).fill(0), ...rest] : head;
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return null;
  if (tail.length === 2) {
    groups[6] = tail[0] as number;
    groups[7] = tail[1] as number;
  }
  return groups;
}

function ipv6Class(ip: string): AddressClass {
  const g = ipv6Groups(ip);
  if (!g) return "invalid";
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (g.every((x) => x === 0)) return "unspecified";
  if (g.slice(0, 7).every((x) => x === 0) && g7 === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible forms are judged as the IPv4 address.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0)) {
    return ipv4Class(`${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`);
  }
  if (
    g0 === 0xfd00 &&
    g1 === 0x0ec2 &&
    g2 === 0 &&
    g3 === 0 &&
    g4 === 0 &&
    g5 === 0 &&
    g6 === 0 &&
    g7 === 0x254
  )
    return "metadata"; // AWS instance metadata over IPv6
  if (g0 === 0x64 && g1 === 0xff9b) return "reserved"; // NAT64 can reach private IPv4
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return "link_local";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  if (g0 === 0x2001 && g1 === 0x0db8) return "reserved"; // documentation
  if (g0 === 0x2002) return "reserved"; // 6to4 can embed private IPv4
  return "public";
}

export function classifyAddress(ip: string): AddressClass {
  const version = isIP(ip.split("%")[0] ?? "");
  if (version === 4) return ipv4Class(ip);
  if (version === 6) return ipv6Class(ip);
  return "invalid";
}

export interface AddressPolicy {
  /** Operator's `--allow-private`: loopback, private and link-local ranges are accepted. */
  allowPrivate: boolean;
  /** Loopback (127.0.0.0/8, ::1) is accepted: a test-mode endpoint where the operator allows it. */
  allowLoopback?: boolean;
}

/** What an endpoint is, for its address policy. */
export interface EndpointPolicyInput {
  mode: "test" | "live";
  allowPrivate: boolean;
  /**
   * The operator's setting (ALLOW_LOOPBACK_WEBHOOKS; on for the embedded database, off with
   * DATABASE_URL): may test-mode endpoints use loopback? Unset is no: on a hosted service a
   * tenant's loopback endpoint reaches the host's own services and reads their answers back in
   * the delivery log.
   */
  allowLoopbackWebhooks?: boolean;
}

/**
 * The policy of an endpoint (decision 48): test mode may use loopback where the operator allows
 * loopback webhooks, `allowPrivate` (operator only) more.
 */
export function addressPolicyFor(endpoint: EndpointPolicyInput): AddressPolicy {
  return {
    allowPrivate: endpoint.allowPrivate,
    allowLoopback: endpoint.mode === "test" && endpoint.allowLoopbackWebhooks === true,
  };
}

/** Why a tenant's endpoint on loopback is refused; the dashboard and the CLI show it as it is. */
export const LOOPBACK_REFUSED_REASON =
  "this service does not deliver webhooks to its own loopback (127.0.0.1, ::1, localhost): the operator has not allowed loopback webhooks (ALLOW_LOOPBACK_WEBHOOKS), since on a shared server it would reach the server's own services. Use a public https:// URL (for local development, a tunnel to your machine).";

/**
 * The sentence refusing an address of this class for this endpoint: for loopback, why (a live
 * endpoint needs a public address; a test-mode one is refused by the operator's setting).
 */
export function refusedAddressReason(subject: string, ip: string, endpoint: EndpointPolicyInput): string {
  const kind = classifyAddress(ip);
  if (kind !== "loopback") return `${subject} is not public (${kind}).`;
  return endpoint.mode === "live"
    ? `${subject} is not public (loopback): live-mode endpoints need a public address.`
    : `${subject} is loopback: ${LOOPBACK_REFUSED_REASON}`;
}

/**
 * May a delivery go to this address? Public ones always; loopback for test-mode endpoints where
 * the operator allows it; private ranges only for endpoints allowed them; metadata, unspecified, multicast and reserved
 * never.
 */
export function isAllowedAddress(ip: string, options: AddressPolicy): boolean {
  const kind = classifyAddress(ip);
  if (kind === "public") return true;
  if (kind === "loopback" && options.allowLoopback) return true;
  if (!options.allowPrivate) return false;
  return kind === "loopback" || kind === "private" || kind === "link_local";
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Syntactic checks of an endpoint URL: live endpoints need https (decision 48); no credentials in
 * the URL; a host is required; a literal IP must pass the endpoint's address policy. Names are
 * resolved by the caller, which checks every address with `isAllowedAddress`.
 */
export function checkEndpointUrl(raw: string, options: EndpointPolicyInput): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "The URL is not valid." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, reason: "Webhook URLs must use https:// (or http:// for test-mode endpoints)." };
  if (options.mode === "live" && url.protocol !== "https:")
    return { ok: false, reason: "Live-mode webhook URLs must use https://." };
  if (url.username || url.password) return { ok: false, reason: "Webhook URLs must not carry credentials." };
  if (!url.hostname) return { ok: false, reason: "The URL has no host." };
  if (raw.length > 2048) return { ok: false, reason: "The URL is longer than 2048 characters." };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const policy = addressPolicyFor(options);
  if (isIP(host) && !isAllowedAddress(host, policy))
    return { ok: false, reason: refusedAddressReason(`The address ${host}`, host, options) };
  if (!policy.allowPrivate && !policy.allowLoopback && isLocalhostName(host))
    return { ok: false, reason: refusedAddressReason(host, "127.0.0.1", options) };
  return { ok: true, url };
}

/** `localhost` and its subdomains, which resolve to loopback. */
export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}
