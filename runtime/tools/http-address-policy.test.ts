import { describe, expect, it } from "vitest";
import {
  addressRefusal,
  canonicalHostName,
  embeddedIpv4,
  httpAddressPolicy,
  isAllowedHost,
  isPrivateAddress,
} from "./http-address-policy";

/** What the HTTP tool passes in: the host name exactly as the URL parser writes it. */
const parsedHost = (url: string) => new URL(url).hostname;

describe("isAllowedHost with a wildcard entry", () => {
  // Built inside each test: code run while tests are collected is invisible to a mutation run.
  const policy = () => httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "*.corp.example" });

  it("allows names under the suffix, at any depth", () => {
    for (const host of ["api.corp.example", "a.b.corp.example", "x.corp.example"])
      expect(isAllowedHost(policy(), parsedHost(`http://${host}/`)), host).toBe(true);
  });

  it("refuses look-alikes: another name ending in the same letters, the bare suffix, the suffix in the middle", () => {
    for (const host of [
      "evilcorp.example",
      "corp.example",
      "xcorp.example",
      "corp.example.evil.test",
      "api.corp.example.evil.test",
      "api.corp-example.test",
      "api.corp.examples",
      "api.corpXexample",
    ])
      expect(isAllowedHost(policy(), parsedHost(`http://${host}/`)), host).toBe(false);
    expect(isAllowedHost(policy(), ".corp.example"), "only the dot before the suffix").toBe(false);
    expect(isAllowedHost(policy(), ""), "no host").toBe(false);
  });

  it("treats one trailing dot as the same name (fully qualified), and no more", () => {
    expect(isAllowedHost(policy(), parsedHost("http://api.corp.example./"))).toBe(true);
    expect(isAllowedHost(policy(), parsedHost("http://api.corp.example../"))).toBe(false);
    expect(isAllowedHost(policy(), parsedHost("http://evilcorp.example./"))).toBe(false);
  });

  it("ignores case in the URL and in the entry", () => {
    expect(isAllowedHost(policy(), parsedHost("http://API.Corp.EXAMPLE/"))).toBe(true);
    expect(isAllowedHost(policy(), "API.CORP.EXAMPLE")).toBe(true);
    const shouted = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "*.CORP.Example, API.Internal" });
    expect(isAllowedHost(shouted, "wiki.corp.example")).toBe(true);
    expect(isAllowedHost(shouted, "api.internal")).toBe(true);
    expect(isAllowedHost(shouted, "evilcorp.example")).toBe(false);
  });

  it("refuses a homograph of the suffix (a Cyrillic о), which the URL parser turns into other punycode", () => {
    const homograph = parsedHost("http://api.c\u043erp.example/");
    expect(homograph).toBe("api.xn--crp-sed.example");
    expect(isAllowedHost(policy(), homograph)).toBe(false);
    expect(isAllowedHost(policy(), "api.c\u043erp.example")).toBe(false);
  });
});

describe("isAllowedHost with international names", () => {
  it("matches an entry written in Unicode against the punycode the URL parser gives, and the other way round", () => {
    const unicode = httpAddressPolicy({
      TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "*.bücher.example, straße.example",
    });
    expect(isAllowedHost(unicode, parsedHost("http://shop.bücher.example/"))).toBe(true);
    expect(isAllowedHost(unicode, "shop.xn--bcher-kva.example")).toBe(true);
    expect(isAllowedHost(unicode, parsedHost("http://straße.example/"))).toBe(true);
    expect(isAllowedHost(unicode, parsedHost("http://shop.bucher.example/"))).toBe(false);
    expect(isAllowedHost(unicode, parsedHost("http://xn--bcher-kva.example/"))).toBe(false);
    const punycode = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "*.xn--bcher-kva.example" });
    expect(isAllowedHost(punycode, "shop.bücher.example")).toBe(true);
    expect(isAllowedHost(punycode, parsedHost("http://shop.BÜCHER.example/"))).toBe(true);
  });
});

describe("isAllowedHost with exact entries", () => {
  const policy = () =>
    httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "api.internal, metrics.internal." });

  it("allows exactly the named host, with or without its trailing dot", () => {
    expect(isAllowedHost(policy(), "api.internal")).toBe(true);
    expect(isAllowedHost(policy(), "api.internal.")).toBe(true);
    expect(isAllowedHost(policy(), "metrics.internal")).toBe(true);
    for (const host of ["xapi.internal", "api.internal.evil", "sub.api.internal", "internal", "api-internal"])
      expect(isAllowedHost(policy(), host), host).toBe(false);
  });

  it("drops entries that name nothing: a bare wildcard, a wildcard without a suffix, a lone dot", () => {
    const empty = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "*. , . , *" });
    expect(empty.hosts.filter((host) => host.startsWith("*"))).toEqual(["*", "*"]);
    expect(empty.hosts.some((host) => host.startsWith("*."))).toBe(false);
    expect(isAllowedHost(empty, "a..")).toBe(false);
    expect(isAllowedHost(empty, "anything.example")).toBe(false);
    expect(empty.hosts).not.toContain("");
    expect(isAllowedHost(empty, "not a host!")).toBe(false);
  });
});

describe("canonicalHostName", () => {
  it("writes names as the URL parser does", () => {
    expect(canonicalHostName(" API.Bücher.Example. ")).toBe("api.xn--bcher-kva.example");
    expect(canonicalHostName("")).toBe("");
    expect(canonicalHostName(".")).toBe("");
  });
});

describe("addressRefusal", () => {
  const policy = () =>
    httpAddressPolicy({
      TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "*.corp.example, 10.1.2.3, 192.168.0.0/16, [fd00::]/8",
    });

  it("lets public addresses through whatever the host", () => {
    expect(addressRefusal(policy(), "evilcorp.example", "93.184.216.34")).toBeNull();
    expect(addressRefusal(policy(), "evilcorp.example", "2606:2800:220:1::1")).toBeNull();
  });

  it("refuses a private address reached through a look-alike host, and names the setting", () => {
    expect(addressRefusal(policy(), "evilcorp.example", "10.9.9.9")).toMatch(
      /^Refusing to call evilcorp\.example \(10\.9\.9\.9\): it is a private or loopback address\..*TANDEM_HTTP_TOOLS_ALLOWED_HOSTS/,
    );
    expect(addressRefusal(policy(), "api.corp.example", "10.9.9.9")).toBeNull();
  });

  it("allows listed addresses and ranges, and IPv4 written inside IPv6", () => {
    expect(addressRefusal(policy(), "10.1.2.3", "10.1.2.3")).toBeNull();
    expect(addressRefusal(policy(), "10.1.2.4", "10.1.2.4")).toBe(
      "Refusing to call 10.1.2.4: it is a private or loopback address. HTTP tools may only reach public addresses unless the server allows more: set TANDEM_HTTP_TOOLS_ALLOWED_HOSTS (host names, addresses or ranges) or TANDEM_HTTP_TOOLS_ALLOW_PRIVATE=true.",
    );
    expect(addressRefusal(policy(), "x", "::ffff:192.168.7.7")).toBeNull();
    expect(addressRefusal(policy(), "x", "fd12::1")).toBeNull();
    expect(addressRefusal(policy(), "x", "fe80::1")).not.toBeNull();
    expect(addressRefusal(policy(), "x", "::ffff:127.0.0.1")).not.toBeNull();
  });

  it("ignores a range whose prefix is out of bounds or not a number", () => {
    const odd = httpAddressPolicy({
      TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "10.0.0.0/33, 172.16.0.0/x, fd00::/129",
    });
    expect(addressRefusal(odd, "x", "10.0.0.1")).not.toBeNull();
    expect(addressRefusal(odd, "x", "172.16.0.1")).not.toBeNull();
    expect(addressRefusal(odd, "x", "fd00::1")).not.toBeNull();
    expect(odd.hosts).toEqual([]);
  });
});

describe("isPrivateAddress and embeddedIpv4", () => {
  it("judges IPv4 carried in IPv6 as that IPv4 address, in every spelling", () => {
    expect(embeddedIpv4("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(embeddedIpv4("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(embeddedIpv4("::127.0.0.1")).toBe("127.0.0.1");
    expect(embeddedIpv4("64:ff9b::a9fe:a9fe")).toBe("169.254.169.254");
    expect(embeddedIpv4("2001:db8::1")).toBeUndefined();
    expect(embeddedIpv4("127.0.0.1")).toBeUndefined();
    for (const address of [
      "[::ffff:169.254.169.254]",
      "::ffff:a9fe:a9fe",
      "fe80::1%eth0",
      "0.0.0.0",
      "255.255.255.255",
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ["8.8.8.8", "::ffff:8.8.8.8", "2606:4700::1111"])
      expect(isPrivateAddress(address), address).toBe(false);
    expect(isPrivateAddress("not-an-address")).toBe(true);
  });
});

describe("httpAddressPolicy reads its settings", () => {
  it("nothing set: no private addresses, no hosts", () => {
    const policy = httpAddressPolicy({});
    expect(policy).toMatchObject({ allowPrivate: false, hosts: [], describe: "" });
    expect(addressRefusal(policy, "localhost", "127.0.0.1")).not.toBeNull();
  });

  it("trims and ignores case in TANDEM_HTTP_TOOLS_ALLOW_PRIVATE", () => {
    for (const value of [" True ", "YES", "on\n"])
      expect(httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOW_PRIVATE: value }).allowPrivate, value).toBe(true);
    for (const value of ["", "no", "0", "truthy"])
      expect(httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOW_PRIVATE: value }).allowPrivate, value).toBe(false);
  });

  it("splits the allow-list on commas and any run of white space, and describes it as configured", () => {
    const policy = httpAddressPolicy({
      TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: " a.internal,, b.internal \n\t c.internal ,[fd00::1], 10.0.0.0/8 ",
    });
    expect(policy.hosts).toEqual(["a.internal", "b.internal", "c.internal"]);
    expect(policy.describe).toBe("a.internal, b.internal, c.internal, [fd00::1], 10.0.0.0/8");
    expect(addressRefusal(policy, "x", "fd00::1")).toBeNull();
    expect(addressRefusal(policy, "x", "fd00::2")).not.toBeNull();
    expect(addressRefusal(policy, "x", "10.200.0.1")).toBeNull();
  });

  it("an entry with a bracket inside or the wrong way round allows nothing", () => {
    const policy = httpAddressPolicy({
      TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "fd00[::2, ]fd00::3, fd00::4[",
    });
    for (const address of ["fd00::2", "fd00::3", "fd00::4"])
      expect(addressRefusal(policy, "x", address), address).not.toBeNull();
    expect(policy.hosts).toEqual([]);
  });

  it("an address without a prefix allows that one address, in either family", () => {
    const policy = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "10.1.2.3, fd00::7" });
    expect(addressRefusal(policy, "x", "10.1.2.3")).toBeNull();
    expect(addressRefusal(policy, "x", "10.1.2.2")).not.toBeNull();
    expect(addressRefusal(policy, "x", "fd00::7")).toBeNull();
    expect(addressRefusal(policy, "x", "fd00::6")).not.toBeNull();
  });

  it("a /0 range allows every address of its family; negative, fractional and too-long prefixes are ignored", () => {
    const all = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "0.0.0.0/0" });
    expect(addressRefusal(all, "x", "192.168.1.1")).toBeNull();
    expect(addressRefusal(all, "x", "fd00::1")).not.toBeNull();
    const ipv6 = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "fd00::/64" });
    expect(addressRefusal(ipv6, "x", "fd00::1234")).toBeNull();
    expect(addressRefusal(ipv6, "x", "fd00:0:0:1::1")).not.toBeNull();
    const odd = httpAddressPolicy({
      TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "10.0.0.0/-1, 10.0.0.0/8.5, fd00::/64.5, 10.0.0.0/40",
    });
    expect(addressRefusal(odd, "x", "10.0.0.1")).not.toBeNull();
    expect(addressRefusal(odd, "x", "fd00::1")).not.toBeNull();
    const wide = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "fd00::/100" });
    expect(addressRefusal(wide, "x", "fd00::1")).toBeNull();
  });
});

describe("isPrivateAddress spellings", () => {
  it("strips the brackets and the zone of a public IPv6 address before judging it", () => {
    expect(isPrivateAddress("[2606:4700::1111]")).toBe(false);
    expect(isPrivateAddress("2606:4700::1111%eth0")).toBe(false);
    expect(isPrivateAddress("[::1]")).toBe(true);
    // Brackets only around the whole address: anything else is not an address, so it is refused.
    for (const junk of ["2606:4700::1111[", "]2606:4700::1111", "2606:4700::1111]]", "[[2606:4700::1111]"])
      expect(isPrivateAddress(junk), junk).toBe(true);
  });

  it("embeddedIpv4 reads only the IPv4 forms, anchored at both ends", () => {
    expect(embeddedIpv4("2001:db8::ffff:7f00:1")).toBeUndefined();
    expect(embeddedIpv4("::ffff:7f00:1:2")).toBeUndefined();
    expect(isPrivateAddress("2606:4700::ffff:7f00:1")).toBe(false);
  });

  it("checks every private range, at its first and last address, and the public addresses next to them", () => {
    const ranges: [string, string, string[]][] = [
      ["0.0.0.0", "0.255.255.255", ["1.0.0.0"]],
      ["10.0.0.0", "10.255.255.255", ["9.255.255.255", "11.0.0.0"]],
      ["100.64.0.0", "100.127.255.255", ["100.63.255.255", "100.128.0.0"]],
      ["127.0.0.0", "127.255.255.255", ["126.255.255.255", "128.0.0.0"]],
      ["169.254.0.0", "169.254.255.255", ["169.253.255.255", "169.255.0.0"]],
      ["172.16.0.0", "172.31.255.255", ["172.15.255.255", "172.32.0.0"]],
      ["192.0.0.0", "192.0.0.255", ["192.0.1.0"]],
      ["192.168.0.0", "192.168.255.255", ["192.167.255.255", "192.169.0.0"]],
      ["198.18.0.0", "198.19.255.255", ["198.17.255.255", "198.20.0.0"]],
      ["224.0.0.0", "239.255.255.255", ["223.255.255.255"]],
      ["240.0.0.0", "255.255.255.255", []],
      ["::", "::", ["::2"]],
      ["::1", "::1", []],
      [
        "fc00::",
        "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        ["fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe00::"],
      ],
      ["fe80::", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ["fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]],
      ["fec0::", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", []],
      ["ff00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", []],
      [
        "64:ff9b:1::",
        "64:ff9b:1:ffff:ffff:ffff:ffff:ffff",
        ["64:ff9b:2::", "64:ff9b:0:ffff:ffff:ffff:ffff:ffff"],
      ],
    ];
    for (const [first, last, publicNeighbours] of ranges) {
      expect(isPrivateAddress(first), first).toBe(true);
      expect(isPrivateAddress(last), last).toBe(true);
      for (const neighbour of publicNeighbours) expect(isPrivateAddress(neighbour), neighbour).toBe(false);
    }
  });
});
