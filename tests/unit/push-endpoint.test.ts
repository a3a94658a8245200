import { describe, expect, it } from "vitest";
import { endpointShape, isPublicAddress, publicOnlyLookup, pushEndpointRefusal, type PushEndpointPolicy } from "../../api/services/push-endpoint";

/** Which push endpoints the api talks to (api/services/push-endpoint.ts). */
describe("isPublicAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this network"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.1", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["240.0.0.1", "reserved"],
    ["::1", "IPv6 loopback"],
    ["::", "IPv6 unspecified"],
    ["fe80::1", "IPv6 link-local"],
    ["fe80::1%eth0", "IPv6 link-local with a zone"],
    ["fc00::1", "unique local"],
    ["fd12:3456::1", "unique local"],
    ["fec0::1", "site-local (deprecated)"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped link-local"],
    ["::127.0.0.1", "IPv4-compatible (outside 2000::/3)"],
    ["64:ff9b::7f00:1", "NAT64"],
    ["2002:7f00:1::1", "6to4"],
    ["2001::1", "Teredo"],
    ["2001:db8::1", "documentation"],
    ["100::1", "discard"],
    ["2130706433", "decimal loopback"],
    ["0x7f.0.0.1", "hex loopback"],
    ["0177.0.0.1", "octal loopback"],
    ["localhost", "a name"],
    ["", "nothing"],
    ["300.1.1.1", "no address"],
  ])("refuses %s (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["8.8.8.8", "142.250.185.74", "93.184.215.14", "1.1.1.1", "::ffff:8.8.8.8", "2a00:1450:4001:800::200e", "2606:4700:4700::1111"])("takes %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe("endpointShape", () => {
  it("takes https on the default port at a name or a public address, leaving the name to resolve", () => {
    expect(endpointShape("https://fcm.googleapis.com/fcm/send/abc:APA91b")).toEqual({ hostname: "fcm.googleapis.com" });
    expect(endpointShape("https://Push.Example.com:443/x")).toEqual({ hostname: "push.example.com" });
    expect(endpointShape("https://8.8.8.8/x")).toEqual({ hostname: null });
    expect(endpointShape("https://[2a00:1450:4001:800::200e]/x")).toEqual({ hostname: null });
  });

  it.each([
    ["http://push.example.com/x", "not_https"],
    ["ftp://push.example.com/x", "not_https"],
    ["not a url", "not_url"],
    ["https://push.example.com:8443/x", "port"],
    ["https://push.example.com:80/x", "port"],
    ["https://user:pw@push.example.com/x", "credentials"],
    ["https://push.example.com:443@127.0.0.1/x", "credentials"],
    ["https://127.0.0.1/x", "not_public"],
    ["https://2130706433/x", "not_public"],
    ["https://0x7f.1/x", "not_public"],
    ["https://0177.0.0.1/x", "not_public"],
    ["https://[::ffff:127.0.0.1]/x", "not_public"],
    ["https://[::1]/x", "not_public"],
    ["https://169.254.169.254/latest", "not_public"],
    ["https://localhost/x", "not_public"],
    ["https://LOCALHOST./x", "not_public"],
    ["https://api.localhost/x", "not_public"],
  ])("refuses %s (%s)", (endpoint, reason) => {
    expect(endpointShape(endpoint)).toEqual({ refused: reason });
  });

  it("takes a test's trusted origin as it is, and only that origin", () => {
    const policy = { trustedOrigins: ["https://127.0.0.1:9443"] };
    expect(endpointShape("https://127.0.0.1:9443/push/1", policy)).toEqual({ hostname: null });
    expect(endpointShape("https://127.0.0.1:9444/push/1", policy)).toEqual({ refused: "port" });
    expect(endpointShape("http://127.0.0.1:9443/push/1", policy)).toEqual({ refused: "not_https" });
  });
});

describe("pushEndpointRefusal", () => {
  const policy = (answers: Record<string, string[]>): PushEndpointPolicy => ({
    resolve: (hostname) => (answers[hostname] ? Promise.resolve(answers[hostname]) : Promise.reject(Object.assign(new Error("not found"), { code: "ENOTFOUND" }))),
  });

  it("needs every address of the name to be public", async () => {
    const answers = { "push.example.com": ["93.184.215.14", "2606:4700:4700::1111"], "inside.example.com": ["10.0.0.7"], "mixed.example.com": ["93.184.215.14", "127.0.0.1"], "mapped.example.com": ["::ffff:169.254.169.254"] };
    expect(await pushEndpointRefusal("https://push.example.com/x", policy(answers))).toBeNull();
    expect(await pushEndpointRefusal("https://inside.example.com/x", policy(answers))).toBe("not_public");
    expect(await pushEndpointRefusal("https://mixed.example.com/x", policy(answers))).toBe("not_public");
    expect(await pushEndpointRefusal("https://mapped.example.com/x", policy(answers))).toBe("not_public");
    expect(await pushEndpointRefusal("https://gone.example.com/x", policy(answers))).toBe("unresolved");
    expect(await pushEndpointRefusal("https://empty.example.com/x", policy({ "empty.example.com": [] }))).toBe("unresolved");
  });

  it("does not resolve what its shape refuses", async () => {
    let asked = 0;
    const counting: PushEndpointPolicy = { resolve: () => ((asked += 1), Promise.resolve(["93.184.215.14"])) };
    expect(await pushEndpointRefusal("https://push.example.com:5432/x", counting)).toBe("port");
    expect(await pushEndpointRefusal("https://127.0.0.1/x", counting)).toBe("not_public");
    expect(asked).toBe(0);
  });
});

describe("publicOnlyLookup (the sending agent's DNS)", () => {
  const lookupOf = (hostname: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) => publicOnlyLookup()(hostname, { all }, (error, address) => resolve({ error, address })));

  it("fails the connection when the name resolves to loopback", async () => {
    for (const all of [false, true]) {
      const { error } = await lookupOf("localhost", all);
      expect(error?.code).toBe("ENOTPUBLIC");
    }
  });

  it("lets a trusted test origin's name through", async () => {
    const { error, address } = await new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      publicOnlyLookup({ trustedOrigins: ["https://localhost:9443"] })("localhost", { all: true }, (error, address) => resolve({ error, address })),
    );
    expect(error).toBeNull();
    expect(Array.isArray(address) && address.length > 0).toBe(true);
  });
});
