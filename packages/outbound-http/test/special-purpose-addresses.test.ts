import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AddressClass, checkEndpointUrl, classifyAddress, isAllowedAddress } from "../src/index.js";

/**
 * The IANA IPv4 and IPv6 Special-Purpose Address Registries, transcribed here as the test's own
 * oracle (not read from the library the classifier uses), with the blocks of the address
 * architecture that those registries leave out (multicast, deprecated site-local) and the cloud
 * metadata addresses the classifier also knows (decision 161).
 * `never`: refused whatever the endpoint's settings; otherwise `--allow-private` (and, for
 * loopback, the operator's loopback allowance) may accept it, as before (decisions 48 and 95).
 */
interface Block {
  cidr: string;
  never: boolean;
}
const IPV4_SPECIAL: Block[] = [
  { cidr: "0.0.0.0/8", never: true },
  { cidr: "10.0.0.0/8", never: false },
  { cidr: "100.64.0.0/10", never: false },
  { cidr: "127.0.0.0/8", never: false },
  { cidr: "169.254.0.0/16", never: false },
  { cidr: "172.16.0.0/12", never: false },
  { cidr: "192.0.0.0/24", never: true },
  { cidr: "192.0.0.0/29", never: true },
  { cidr: "192.0.0.8/32", never: true },
  { cidr: "192.0.0.9/32", never: true },
  { cidr: "192.0.0.10/32", never: true },
  { cidr: "192.0.0.170/32", never: true },
  { cidr: "192.0.0.171/32", never: true },
  { cidr: "192.0.2.0/24", never: true },
  { cidr: "192.31.196.0/24", never: true },
  { cidr: "192.52.193.0/24", never: true },
  { cidr: "192.88.99.0/24", never: true },
  { cidr: "192.168.0.0/16", never: false },
  { cidr: "192.175.48.0/24", never: true },
  { cidr: "198.18.0.0/15", never: true },
  { cidr: "198.51.100.0/24", never: true },
  { cidr: "203.0.113.0/24", never: true },
  { cidr: "224.0.0.0/4", never: true },
  { cidr: "240.0.0.0/4", never: true },
  { cidr: "255.255.255.255/32", never: true },
  { cidr: "169.254.169.254/32", never: true },
  { cidr: "168.63.129.16/32", never: true },
  { cidr: "100.100.100.200/32", never: true },
];
const IPV6_SPECIAL: Block[] = [
  { cidr: "::1/128", never: false },
  { cidr: "::/128", never: true },
  { cidr: "64:ff9b::/96", never: true },
  { cidr: "64:ff9b:1::/48", never: true },
  { cidr: "100::/64", never: true },
  { cidr: "100:0:0:1::/64", never: true },
  { cidr: "2001::/23", never: true },
  { cidr: "2001::/32", never: true },
  { cidr: "2001:1::1/128", never: true },
  { cidr: "2001:1::2/128", never: true },
  { cidr: "2001:1::3/128", never: true },
  { cidr: "2001:2::/48", never: true },
  { cidr: "2001:3::/32", never: true },
  { cidr: "2001:4:112::/48", never: true },
  { cidr: "2001:10::/28", never: true },
  { cidr: "2001:20::/28", never: true },
  { cidr: "2001:30::/28", never: true },
  { cidr: "2001:db8::/32", never: true },
  { cidr: "2002::/16", never: true },
  { cidr: "2620:4f:8000::/48", never: true },
  { cidr: "3fff::/20", never: true },
  { cidr: "5f00::/16", never: true },
  { cidr: "fc00::/7", never: false },
  { cidr: "fe80::/10", never: false },
  { cidr: "fec0::/10", never: false },
  { cidr: "ff00::/8", never: true },
  { cidr: "fd00:ec2::254/128", never: true },
];
/**
 * Blocks that carry an IPv4 address for this host; judged as that address: the IPv4-mapped
 * block of the registry, RFC 6145's IPv4-translated block and RFC 4291's IPv4-compatible one.
 */
const SAME_HOST_FORMS = ["::ffff:0:0/96", "::ffff:0:0:0/96", "::/96"];

function parseV4(text: string): bigint {
  return text.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}
function parseV6(text: string): bigint {
  const [head = "", tail] = text.split("::");
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}
function v4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join(".");
}
function v6Text(value: bigint): string {
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
  return groups.join(":");
}
interface Cidr {
  base: bigint;
  hostBits: bigint;
}
function cidr(text: string, width: 32 | 128): Cidr {
  const [address = "", prefix = ""] = text.split("/");
  const hostBits = BigInt(width - Number(prefix));
  const value = width === 32 ? parseV4(address) : parseV6(address);
  return { base: (value >> hostBits) << hostBits, hostBits };
}
function contains(block: Cidr, value: bigint): boolean {
  return value >> block.hostBits === block.base >> block.hostBits;
}
/** An address inside the block, the host part from 128 random bits. */
function inside(block: Cidr, random: bigint): bigint {
  return block.base | (random & ((1n << block.hostBits) - 1n));
}
const bits128 = fc
  .tuple(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }))
  .map(([a, b]) => (a << 64n) | b);
/** The host part drawn at the edges as often as in between. */
const hostPart = fc.oneof(bits128, fc.constant(0n), fc.constant((1n << 128n) - 1n));

/** The compressed text a URL's host would hold, as well as the full form. */
function urlForm(v6: string): string {
  return new URL(`http://[${v6}]/`).hostname.replace(/^\[|\]$/g, "");
}

const closed = { allowPrivate: false, allowLoopback: false };
const open = { allowPrivate: true, allowLoopback: true };
const RUNS = { numRuns: 60 };

describe("special-purpose addresses (decision 161)", () => {
  it.each(IPV4_SPECIAL)("every IPv4 address in $cidr is refused", ({ cidr: text, never }) => {
    const block = cidr(text, 32);
    fc.assert(
      fc.property(hostPart, (random) => {
        const ip = v4Text(inside(block, random));
        expect(classifyAddress(ip), ip).not.toBe("public");
        expect(isAllowedAddress(ip, closed), ip).toBe(false);
        if (never) expect(isAllowedAddress(ip, open), ip).toBe(false);
        expect(checkEndpointUrl(`https://${ip}/hook`, { mode: "live", allowPrivate: false }).ok, ip).toBe(
          false,
        );
      }),
      RUNS,
    );
  });

  it.each(IPV6_SPECIAL)("every IPv6 address in $cidr is refused", ({ cidr: text, never }) => {
    const block = cidr(text, 128);
    fc.assert(
      fc.property(hostPart, fc.boolean(), (random, compressed) => {
        const full = v6Text(inside(block, random));
        const ip = compressed ? urlForm(full) : full;
        expect(classifyAddress(ip), ip).not.toBe("public");
        expect(isAllowedAddress(ip, closed), ip).toBe(false);
        if (never) expect(isAllowedAddress(ip, open), ip).toBe(false);
        expect(checkEndpointUrl(`https://[${ip}]/hook`, { mode: "live", allowPrivate: false }).ok, ip).toBe(
          false,
        );
      }),
      RUNS,
    );
  });

  /** A non-public IPv4 address: one inside a random block of the IPv4 table. */
  const nonPublicV4 = fc
    .tuple(fc.constantFrom(...IPV4_SPECIAL), hostPart)
    .map(([block, random]) => inside(cidr(block.cidr, 32), random));

  it("an IPv4 address carried for this host (mapped, translated, compatible) is judged as that address", () => {
    fc.assert(
      fc.property(nonPublicV4, fc.constantFrom(...SAME_HOST_FORMS), fc.boolean(), (v4, form, compressed) => {
        // :: and ::1 are the unspecified and loopback addresses, not IPv4-compatible ones.
        fc.pre(form !== "::/96" || v4 > 1n);
        const full = v6Text(cidr(form, 128).base | v4);
        const ip = compressed ? urlForm(full) : full;
        const alone = classifyAddress(v4Text(v4));
        expect(classifyAddress(ip), `${ip} carries ${v4Text(v4)}`).toBe(alone);
        expect(isAllowedAddress(ip, closed), ip).toBe(false);
        expect(isAllowedAddress(ip, open), ip).toBe(isAllowedAddress(v4Text(v4), open));
      }),
      RUNS,
    );
  });

  it("an IPv4 address carried through a translator or relay (NAT64, 6to4, Teredo) is refused whatever the settings", () => {
    const carriers: ((v4: bigint, random: bigint) => bigint)[] = [
      (v4) => parseV6("64:ff9b::") | v4,
      (v4, random) => parseV6("64:ff9b:1::") | ((random & 0xffff_ffffn) << 32n) | v4,
      (v4, random) => parseV6("2002::") | (v4 << 80n) | (random & ((1n << 80n) - 1n)),
      // Teredo: the server's IPv4 after the prefix, the client's IPv4 inverted in the last 32 bits.
      (v4, random) =>
        parseV6("2001::") | (v4 << 64n) | (random & (0xffff_ffffn << 32n)) | (v4 ^ 0xffff_ffffn),
    ];
    fc.assert(
      fc.property(
        nonPublicV4,
        fc.constantFrom(...carriers),
        bits128,
        fc.boolean(),
        (v4, carry, random, short) => {
          const full = v6Text(carry(v4, random));
          const ip = short ? urlForm(full) : full;
          expect(isAllowedAddress(ip, closed), ip).toBe(false);
          expect(isAllowedAddress(ip, open), ip).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it("the reported forms are refused", () => {
    const cases: [string, AddressClass][] = [
      ["168.63.129.16", "metadata"],
      ["::ffff:168.63.129.16", "metadata"],
      ["::ffff:0:a9fe:a9fe", "metadata"],
      ["::ffff:0:7f00:1", "loopback"],
      ["::ffff:0:a00:1", "private"],
      ["::a00:1", "private"],
      ["fec0::1", "private"],
      ["2001::1", "reserved"],
      ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"],
      ["192.88.99.1", "reserved"],
      ["64:ff9b::a9fe:a9fe", "reserved"],
      ["2002:a9fe:a9fe::1", "reserved"],
    ];
    for (const [ip, kind] of cases) expect(classifyAddress(ip), ip).toBe(kind);
  });

  it("plain public unicast is allowed", () => {
    const v4Blocks = IPV4_SPECIAL.map((b) => cidr(b.cidr, 32));
    const v6Blocks = [...IPV6_SPECIAL.map((b) => b.cidr), ...SAME_HOST_FORMS].map((c) => cidr(c, 128));
    const globalUnicast = cidr("2000::/3", 128);
    const publicV4 = fc
      .bigInt({ min: 0n, max: 0xffff_ffffn })
      .filter((v) => !v4Blocks.some((b) => contains(b, v)))
      .map(v4Text);
    const publicV6 = hostPart
      .map((random) => inside(globalUnicast, random))
      .filter((v) => !v6Blocks.some((b) => contains(b, v)))
      .map(v6Text);
    fc.assert(
      fc.property(fc.oneof(publicV4, publicV6, publicV6.map(urlForm)), (ip) => {
        expect(classifyAddress(ip), ip).toBe("public");
        expect(isAllowedAddress(ip, closed), ip).toBe(true);
      }),
      { numRuns: 2000 },
    );
    // An IPv4-mapped public address is that public address.
    expect(classifyAddress("::ffff:8.8.8.8")).toBe("public");
  });
});
