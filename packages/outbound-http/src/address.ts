import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Where a request to a caller-registered address may go (decision 48): a webhook delivery, and an
 * EHR's JWK Set or FHIR server (decision 122). Never to loopback, private, link-local, metadata
 * or other non-public addresses, unless the endpoint is allowed them (operator's `--allow-private`;
 * loopback for a test-mode endpoint where the operator allows loopback webhooks). Pure checks, the
 * one home of these rules (decision 213): the caller resolves names and passes addresses in, at
 * registration and again before each request (DNS rebinding).
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

/**
 * Addresses that answer a cloud's instance metadata or host agent although some of them are
 * ordinary unicast by the registries: AWS, GCP and Azure IMDS (169.254.169.254), Azure's wire
 * server (168.63.129.16, a public address Microsoft reserves for the host), Alibaba's metadata
 * (100.100.100.200) and AWS's metadata over IPv6 (fd00:ec2::254). Never reachable, whatever the
 * endpoint's settings.
 */
const METADATA_ADDRESSES: readonly string[] = [
  "169.254.169.254",
  "168.63.129.16",
  "100.100.100.200",
  "fd00:ec2:0:0:0:0:0:254",
];

/**
 * ipaddr.js's names for the IANA special-purpose blocks (IPv4 and IPv6 Special-Purpose Address
 * Registries, the multicast and site-local blocks of the address architecture) as our classes
 * (decision 161). A name not listed here, such as one a later version of the library adds, reads
 * as `reserved`: an unknown special block is refused, never taken for public.
 */
const RANGE_CLASS: Readonly<Record<string, AddressClass>> = {
  unicast: "public",
  unspecified: "unspecified",
  loopback: "loopback",
  private: "private",
  carrierGradeNat: "private",
  uniqueLocal: "private",
  deprecatedSiteLocal: "private",
  linkLocal: "link_local",
  multicast: "multicast",
  broadcast: "reserved",
};

/**
 * IPv6 blocks that carry an IPv4 address in their last 32 bits and, on this host, reach that
 * IPv4 address: IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96, RFC 6145) and the
 * deprecated IPv4-compatible form (::/96). They are judged as the IPv4 address they carry.
 */
const SAME_HOST_IPV4_FORMS = new Set(["ipv4Mapped", "rfc6145"]);

function ipv4Class(address: ipaddr.IPv4): AddressClass {
  return RANGE_CLASS[address.range()] ?? "reserved";
}

function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const [high, low] = address.parts.slice(6) as [number, number];
  return new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
}

/** The deprecated IPv4-compatible form ::a.b.c.d (::/96 less :: and ::1). */
function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  const p = address.parts;
  return p.slice(0, 6).every((x) => x === 0) && ((p[6] as number) !== 0 || (p[7] as number) > 1);
}

function ipv6Class(address: ipaddr.IPv6): AddressClass {
  const range = address.range();
  if (SAME_HOST_IPV4_FORMS.has(range) || isIpv4Compatible(address)) return ipv4Class(embeddedIpv4(address));
  const known = RANGE_CLASS[range];
  if (known === undefined) return "reserved"; // NAT64, 6to4, Teredo, documentation, ORCHID, ...
  // Outside 2000::/3 IANA has assigned no global unicast: what the library calls unicast there is
  // unassigned space (for example 100:0:0:1::/64), not a public address.
  if (known === "public" && ((address.parts[0] as number) & 0xe000) !== 0x2000) return "reserved";
  return known;
}

/**
 * The class of an address, from the IANA special-purpose registries (decision 161): the one
 * classifier every check of a caller-registered address uses (webhook endpoints, EHR key sets
 * and FHIR servers, at registration and before every request). An IPv6 address that carries an
 * IPv4 one for this host (mapped, translated, compatible) is judged as that IPv4 address; one
 * that carries it through a translator or relay (NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4
 * 2002::/16, Teredo 2001::/32) is `reserved`, refused whatever it carries.
 */
export function classifyAddress(ip: string): AddressClass {
  const version = isIP(ip.split("%")[0] ?? "");
  if (version === 0) return "invalid";
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(ip);
  } catch {
    return "invalid";
  }
  if (address.kind() === "ipv6") {
    const v6 = address as ipaddr.IPv6;
    const plain = new ipaddr.IPv6(v6.parts);
    if (METADATA_ADDRESSES.includes(plain.toNormalizedString())) return "metadata";
    const carried =
      SAME_HOST_IPV4_FORMS.has(v6.range()) || isIpv4Compatible(v6) ? embeddedIpv4(v6).toString() : null;
    if (carried !== null && METADATA_ADDRESSES.includes(carried)) return "metadata";
    return ipv6Class(v6);
  }
  if (METADATA_ADDRESSES.includes(address.toString())) return "metadata";
  return ipv4Class(address as ipaddr.IPv4);
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
