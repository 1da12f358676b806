// Which network addresses HTTP tools may reach. A definition drawn in a browser must not turn the
// server into a proxy for its own network, so loopback, private, link-local (cloud metadata at
// 169.254.169.254), unique-local and unspecified addresses are refused unless the operator allows
// them: TANDEM_HTTP_TOOLS_ALLOW_PRIVATE=true allows all of them, TANDEM_HTTP_TOOLS_ALLOWED_HOSTS
// allows named hosts (`api.internal`, `*.corp.example`), addresses and ranges (`10.1.2.3`,
// `10.0.0.0/8`, `fd00::/8`). Host names are compared the way the URL parser writes them: lower case,
// international names as punycode, without the trailing dot of a fully qualified name.
import net from "node:net";
import { domainToASCII } from "node:url";

const PRIVATE_RANGES: [string, number, "ipv4" | "ipv6"][] = [
  ["0.0.0.0", 8, "ipv4"], // "this network", including the unspecified 0.0.0.0
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"], // carrier-grade NAT, often internal in clouds
  ["127.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"], // link-local, including the 169.254.169.254 metadata service
  ["172.16.0.0", 12, "ipv4"],
  ["192.0.0.0", 24, "ipv4"], // IETF protocol assignments
  ["192.168.0.0", 16, "ipv4"],
  ["198.18.0.0", 15, "ipv4"], // benchmarking
  ["224.0.0.0", 4, "ipv4"], // multicast
  ["240.0.0.0", 4, "ipv4"], // reserved, and 255.255.255.255
  ["::", 128, "ipv6"], // unspecified
  ["::1", 128, "ipv6"], // loopback
  ["fc00::", 7, "ipv6"], // unique local
  ["fe80::", 10, "ipv6"], // link-local
  ["fec0::", 10, "ipv6"], // deprecated site-local
  ["ff00::", 8, "ipv6"], // multicast
  ["64:ff9b:1::", 48, "ipv6"], // local-use NAT64
];

const PRIVATE = new net.BlockList();
for (const [network, prefix, family] of PRIVATE_RANGES) PRIVATE.addSubnet(network, prefix, family);

/**
 * The IPv4 address an IPv6 address carries — IPv4-mapped (`::ffff:127.0.0.1`, also written
 * `::ffff:7f00:1`), IPv4-compatible (`::127.0.0.1`) or NAT64 (`64:ff9b::127.0.0.1`) — so it is judged
 * as that IPv4 address. The WHATWG URL parser puts every spelling into one canonical form first.
 */
export function embeddedIpv4(address: string): string | undefined {
  if (!net.isIPv6(address)) return undefined;
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const match = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match?.[1] || !match[2]) return undefined;
  const high = Number.parseInt(match[1], 16);
  const low = Number.parseInt(match[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** True for loopback, private, link-local, unique-local, unspecified and other non-public addresses. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const ipv4 = net.isIPv4(bare) ? bare : embeddedIpv4(bare);
  if (ipv4) return PRIVATE.check(ipv4, "ipv4");
  if (net.isIPv6(bare)) return PRIVATE.check(bare, "ipv6");
  return true; // not an IP address at all: never treat it as safe
}

export interface HttpAddressPolicy {
  allowPrivate: boolean;
  /** Exact host names (lower case) and `*.suffix` wildcards. */
  hosts: string[];
  addresses: net.BlockList;
  /** The allow-list as configured, for error messages. */
  describe: string;
}

const TRUE_VALUES = new Set(["1", "true", "yes", "on"]);

/**
 * `API.Bücher.example.` → `api.xn--bcher-kva.example`; "" for what is not a host name. A wildcard
 * entry keeps its `*` (`*.Bücher.example` → `*.xn--bcher-kva.example`); a bare `*` names no real host.
 */
export function canonicalHostName(name: string): string {
  return domainToASCII(name.trim().replace(/\.$/, ""));
}

export function httpAddressPolicy(env: Record<string, string | undefined>): HttpAddressPolicy {
  const allowPrivate = TRUE_VALUES.has((env.TANDEM_HTTP_TOOLS_ALLOW_PRIVATE ?? "").trim().toLowerCase());
  const hosts: string[] = [];
  const addresses = new net.BlockList();
  const entries = (env.TANDEM_HTTP_TOOLS_ALLOWED_HOSTS ?? "")
    .split(/[\s,]/)
    .map((entry) => entry.toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    const [bracketed, prefixText] = entry.split("/") as [string, string?];
    const network = bracketed.replace(/^\[|\]$/g, "");
    const family = net.isIPv4(network) ? "ipv4" : net.isIPv6(network) ? "ipv6" : undefined;
    if (family) {
      const prefix = prefixText === undefined ? (family === "ipv4" ? 32 : 128) : Number(prefixText);
      if (Number.isInteger(prefix) && prefix >= 0 && prefix <= (family === "ipv4" ? 32 : 128))
        addresses.addSubnet(network, prefix, family);
      continue;
    }
    const host = canonicalHostName(entry);
    if (host !== "") hosts.push(host);
  }
  return { allowPrivate, hosts, addresses, describe: entries.join(", ") };
}

/** Whether the URL's host name is on the allow-list (then any address it resolves to is allowed). */
export function isAllowedHost(policy: HttpAddressPolicy, hostname: string): boolean {
  const host = canonicalHostName(hostname);
  return policy.hosts.some((entry) =>
    entry.startsWith("*.") ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry,
  );
}

function isAllowedAddress(policy: HttpAddressPolicy, address: string): boolean {
  const ipv4 = net.isIPv4(address) ? address : embeddedIpv4(address);
  if (ipv4) return policy.addresses.check(ipv4, "ipv4");
  return net.isIPv6(address) && policy.addresses.check(address, "ipv6");
}

/**
 * Null when `address` (one the host resolved to) may be contacted; otherwise the reason, written for
 * the model and the person reading the tool result.
 */
export function addressRefusal(policy: HttpAddressPolicy, hostname: string, address: string): string | null {
  if (policy.allowPrivate || !isPrivateAddress(address)) return null;
  if (isAllowedHost(policy, hostname) || isAllowedAddress(policy, address)) return null;
  const where = hostname === address ? hostname : `${hostname} (${address})`;
  return `Refusing to call ${where}: it is a private or loopback address. HTTP tools may only reach public addresses unless the server allows more: set TANDEM_HTTP_TOOLS_ALLOWED_HOSTS (host names, addresses or ranges) or TANDEM_HTTP_TOOLS_ALLOW_PRIVATE=true.`;
}
