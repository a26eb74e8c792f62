import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "./address-guard";

describe("isPrivateAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.255.0.9", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true], // cloud metadata
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["255.255.255.255", true],
    ["8.8.8.8", false],
    ["93.184.216.34", false],
    ["::1", true],
    ["::", true],
    ["fe80::1", true],
    ["fd00:ec2::254", true], // AWS metadata over IPv6
    ["fc00::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::ffff:8.8.8.8", false],
    ["64:ff9b::a9fe:a9fe", true], // NAT64 of 169.254.169.254
    ["2001:db8::1", true],
    ["2606:4700:4700::1111", false],
    // IPv6 transition forms carry an IPv4 address: the embedded one decides.
    ["::127.0.0.1", true], // IPv4-compatible (what [::127.0.0.1] in a URL is)
    ["::7f00:1", true],
    ["::a9fe:a9fe", true],
    ["::8.8.8.8", false],
    ["::ffff:10.0.0.1", true],
    ["::ffff:0:7f00:1", true], // IPv4-translated (RFC 6145)
    ["::ffff:0:808:808", false],
    ["64:ff9b::127.0.0.1", true],
    ["64:ff9b::808:808", false],
    ["64:ff9b:1::a9fe:a9fe", true], // NAT64 local use: the network decides, so never
    ["64:ff9b:1:2:3::808:808", true],
    ["2002:7f00:1::", true], // 6to4 of 127.0.0.1
    ["2002:a9fe:a9fe:1::1", true],
    ["2002:c0a8:101::1", true], // 192.168.1.1
    ["2002:808:808::1", false],
    ["2001:0:7f00:1::1", true], // Teredo, server 127.0.0.1
    ["2001:0:808:808:0:0:f5ff:fffe", true], // Teredo, client 10.0.0.1 (stored inverted)
    ["2001:0:808:808:0:0:f7f7:f7f7", false], // Teredo 8.8.8.8 via 8.8.8.8
    ["2001:4860:4860::8888", false], // 2001::/23 outside Teredo's /32
    ["not-an-ip", true],
    ["", true],
  ])("%s → %s", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
