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
  const policy = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "*.corp.example" });

  it("allows names under the suffix, at any depth", () => {
    for (const host of ["api.corp.example", "a.b.corp.example", "x.corp.example"])
      expect(isAllowedHost(policy, parsedHost(`http://${host}/`)), host).toBe(true);
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
      expect(isAllowedHost(policy, parsedHost(`http://${host}/`)), host).toBe(false);
    expect(isAllowedHost(policy, ".corp.example"), "only the dot before the suffix").toBe(false);
    expect(isAllowedHost(policy, ""), "no host").toBe(false);
  });

  it("treats one trailing dot as the same name (fully qualified), and no more", () => {
    expect(isAllowedHost(policy, parsedHost("http://api.corp.example./"))).toBe(true);
    expect(isAllowedHost(policy, parsedHost("http://api.corp.example../"))).toBe(false);
    expect(isAllowedHost(policy, parsedHost("http://evilcorp.example./"))).toBe(false);
  });

  it("ignores case in the URL and in the entry", () => {
    expect(isAllowedHost(policy, parsedHost("http://API.Corp.EXAMPLE/"))).toBe(true);
    expect(isAllowedHost(policy, "API.CORP.EXAMPLE")).toBe(true);
    const shouted = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "*.CORP.Example, API.Internal" });
    expect(isAllowedHost(shouted, "wiki.corp.example")).toBe(true);
    expect(isAllowedHost(shouted, "api.internal")).toBe(true);
    expect(isAllowedHost(shouted, "evilcorp.example")).toBe(false);
  });

  it("refuses a homograph of the suffix (a Cyrillic о), which the URL parser turns into other punycode", () => {
    const homograph = parsedHost("http://api.c\u043erp.example/");
    expect(homograph).toBe("api.xn--crp-sed.example");
    expect(isAllowedHost(policy, homograph)).toBe(false);
    expect(isAllowedHost(policy, "api.c\u043erp.example")).toBe(false);
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
  const policy = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "api.internal, metrics.internal." });

  it("allows exactly the named host, with or without its trailing dot", () => {
    expect(isAllowedHost(policy, "api.internal")).toBe(true);
    expect(isAllowedHost(policy, "api.internal.")).toBe(true);
    expect(isAllowedHost(policy, "metrics.internal")).toBe(true);
    for (const host of ["xapi.internal", "api.internal.evil", "sub.api.internal", "internal", "api-internal"])
      expect(isAllowedHost(policy, host), host).toBe(false);
  });

  it("drops entries that name nothing: a bare wildcard, a wildcard without a suffix, a lone dot", () => {
    const empty = httpAddressPolicy({ TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "*. , . , *" });
    expect(empty.hosts).toEqual(["*"]);
    expect(isAllowedHost(empty, "a..")).toBe(false);
    expect(isAllowedHost(empty, "anything.example")).toBe(false);
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
  const policy = httpAddressPolicy({
    TANDEM_HTTP_TOOLS_ALLOWED_HOSTS: "*.corp.example, 10.1.2.3, 192.168.0.0/16, [fd00::]/8",
  });

  it("lets public addresses through whatever the host", () => {
    expect(addressRefusal(policy, "evilcorp.example", "93.184.216.34")).toBeNull();
    expect(addressRefusal(policy, "evilcorp.example", "2606:2800:220:1::1")).toBeNull();
  });

  it("refuses a private address reached through a look-alike host, and names the setting", () => {
    expect(addressRefusal(policy, "evilcorp.example", "10.9.9.9")).toMatch(
      /^Refusing to call evilcorp\.example \(10\.9\.9\.9\): it is a private or loopback address\..*TANDEM_HTTP_TOOLS_ALLOWED_HOSTS/,
    );
    expect(addressRefusal(policy, "api.corp.example", "10.9.9.9")).toBeNull();
  });

  it("allows listed addresses and ranges, and IPv4 written inside IPv6", () => {
    expect(addressRefusal(policy, "10.1.2.3", "10.1.2.3")).toBeNull();
    expect(addressRefusal(policy, "10.1.2.4", "10.1.2.4")).toBe(
      "Refusing to call 10.1.2.4: it is a private or loopback address. HTTP tools may only reach public addresses unless the server allows more: set TANDEM_HTTP_TOOLS_ALLOWED_HOSTS (host names, addresses or ranges) or TANDEM_HTTP_TOOLS_ALLOW_PRIVATE=true.",
    );
    expect(addressRefusal(policy, "x", "::ffff:192.168.7.7")).toBeNull();
    expect(addressRefusal(policy, "x", "fd12::1")).toBeNull();
    expect(addressRefusal(policy, "x", "fe80::1")).not.toBeNull();
    expect(addressRefusal(policy, "x", "::ffff:127.0.0.1")).not.toBeNull();
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
